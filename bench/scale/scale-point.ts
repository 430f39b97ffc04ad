import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ScaleBuildReport } from './scale-build.js';
import type { ScaleProbeReport } from './scale-probe.js';

/** One size of a scale corpus, as measured (scale-distinct.ts, scale.ts). */
export interface ScalePoint {
  /** Sections asked for; undefined for the real corpora as they are. */
  target?: number;
  /** Pages written to grow the corpus to the size (recombined pages, or versioned copies), and how long it took. */
  grown?: { documents: number; seconds: number; versions?: number };
  build: ScaleBuildReport;
  /** Set when this run found the index up to date: when the build whose figures these are ran. */
  builtAt?: string;
  index: { bytes: number; files: Record<string, number> };
  probe: ScaleProbeReport;
}

export function folderBytes(dir: string): { bytes: number; files: Record<string, number> } {
  const files: Record<string, number> = {};
  for (const name of readdirSync(dir)) files[name] = statSync(join(dir, name)).size;
  return { bytes: Object.values(files).reduce((a, b) => a + b, 0), files };
}
