import { join } from 'node:path';
import type { ServerSpawnOptions } from './lib/child-process.js';
import { searchThreadsFlag } from './lib/child-process.js';
import { flagValue } from './lib/flags.js';

/** What `npm run bench` was asked to run (its command-line flags; bench/run.ts). */

export const ALL_PARTS = 'quality,latency,indexing,http,coldstart,firsthour,scale,page,abuse';
export const MILLION = 1_000_000;
/**
 * Sizes of the distinct corpus (recombined pages' sections, the five real corpora's 14k on top;
 * the real corpora alone are always measured first) and of the near-copies stress case: the full
 * run, the quick run (CI) and `--scale` (the scale part alone, up to 1M sections: an hour or more
 * for a first build, whose index later runs reuse; results in bench/results/scale.*).
 */
const SCALE_SIZES = {
  full: { distinct: [100_000], copies: [10_000, 100_000] },
  quick: { distinct: [], copies: [] },
  scaleOnly: { distinct: [100_000, MILLION], copies: [10_000, 100_000] },
};

export interface RunFlags {
  quick: boolean;
  /** `--scale`: the scale part alone, its results in scale-results.json and scale-summary.md. */
  scaleOnly: boolean;
  parts: Set<string>;
  /** Sizes of the distinct corpus and of the near-copies. */
  scaleSizes: number[];
  copySizes: number[];
  /** `--search-threads=<n>`: the HTTP part's server with that many search workers (comparing pool sizes). */
  serverOptions: ServerSpawnOptions;
  /** `--out=<dir>`: a side run (a helper's experiment) writes there, leaving the committed results alone. */
  outDir: string;
  /** `--abuse-phases=fair,home`: the abuse part runs only the phases whose names contain one of these. */
  abusePhases?: string[];
  /** `--soak-minutes=<n>`: how long the soak part runs (30 by default). */
  soakMinutes: number;
}

/** `--<name>=10000,100000`: whole numbers of sections (empty for none), else `fallback`. */
function sizeFlag(argv: readonly string[], name: string, fallback: number[]): number[] {
  const value = flagValue(name, argv);
  const list = value === undefined ? fallback : value.split(',').filter(Boolean).map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--${name} must be whole numbers of sections, e.g. --${name}=10000,100000`);
  return list;
}

function soakMinutes(argv: readonly string[]): number {
  const raw = flagValue('soak-minutes', argv) ?? '30';
  const minutes = Number(raw);
  if (!(minutes > 0)) throw new Error(`--soak-minutes must be a positive number of minutes, got '${raw}'`);
  return minutes;
}

export function runFlags(root: string, argv: readonly string[] = process.argv): RunFlags {
  const quick = argv.includes('--quick');
  const scaleOnly = argv.includes('--scale');
  const sizes = SCALE_SIZES[scaleOnly ? 'scaleOnly' : quick ? 'quick' : 'full'];
  return {
    quick,
    scaleOnly,
    parts: new Set((flagValue('parts', argv) ?? (scaleOnly ? 'scale' : ALL_PARTS)).split(',')),
    scaleSizes: sizeFlag(argv, 'scale-sizes', sizes.distinct),
    copySizes: sizeFlag(argv, 'scale-copies', sizes.copies),
    serverOptions: searchThreadsFlag(argv),
    outDir: flagValue('out', argv) ?? join(root, 'bench', 'results'),
    abusePhases: flagValue('abuse-phases', argv)?.split(',').filter(Boolean),
    soakMinutes: soakMinutes(argv),
  };
}
