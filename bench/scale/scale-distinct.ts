import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentBuildDir } from '../../src/index/read-index.js';
import { runProbe } from '../lib/child-process.js';
import { compactCount } from './scale-chart.js';
import { scaleBuildReportSchema, type ScaleBuildReport } from './scale-build.js';
import { MIX_KB, writeMixedPages } from './scale-mix.js';
import { readMixSource } from './scale-mix-source.js';
import { scaleProbeReportSchema } from './scale-probe.js';
import { folderBytes, type ScalePoint } from './scale-point.js';

/**
 * One size of the distinct scale corpus: the five real corpora as they are, plus pages recombined
 * from them (scale-mix.ts) up to the size, built with the real model (every section embedded) and
 * probed with every labelled set's queries. The corpus, the index and its vector cache stay in the
 * benchmark's work folder: a later run that finds the index up to date with the same corpus reuses
 * it, and reports the figures of the build that wrote it (marked as such).
 */

export const DISTINCT_CORPORA = ['argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo'];
/** Bump when scale-mix.ts would write other pages: the corpus on disk is rewritten. */
const MIX_VERSION = 1;

export interface DistinctOptions {
  /** The folder holding the real corpora (../shared/corpora). */
  corporaRoot: string;
  queriesFiles: string[];
  work: string;
  rounds: number;
  log: (line: string) => void;
}

/** The recombined pages for `target` sections in all, written unless the folder already holds them. */
function mixedCorpus(dir: string, corpusDirs: string[], target: number, log: DistinctOptions['log']) {
  const corpus = join(dir, 'corpus');
  const markerPath = join(dir, 'corpus.json');
  const same = { version: MIX_VERSION, target, corpora: DISTINCT_CORPORA.join(',') };
  if (existsSync(markerPath)) {
    const marker = JSON.parse(readFileSync(markerPath, 'utf8')) as typeof same & { documents: number; seconds: number };
    if (marker.version === same.version && marker.target === target && marker.corpora === same.corpora)
      return { corpus, documents: marker.documents, seconds: marker.seconds };
  }
  rmSync(corpus, { recursive: true, force: true });
  const started = performance.now();
  // Pages for `target` sections (about 5.6 each); the real corpora's 14k come on top.
  const written = writeMixedPages(readMixSource(corpusDirs), corpus, target);
  const seconds = (performance.now() - started) / 1000;
  writeFileSync(markerPath, JSON.stringify({ ...same, documents: written.documents, seconds }));
  log(
    `scale distinct ${compactCount(target)}: wrote ${written.documents} recombined pages into ${MIX_KB} in ${seconds.toFixed(1)} s`,
  );
  return { corpus, documents: written.documents, seconds };
}

/** The build of the point's index: run now, or (index up to date) the report of the run that wrote it. */
async function build(dir: string, corpusDirs: string[], log: DistinctOptions['log'], big: boolean) {
  const reportPath = join(dir, 'build-report.json');
  const report = await runProbe(
    'scale/scale-build',
    [
      ...corpusDirs.flatMap((c) => ['--corpus', c]),
      '--out',
      join(dir, 'index'),
      '--vector-cache',
      join(dir, 'vectors'),
    ],
    scaleBuildReportSchema,
    { log, maxOldSpaceMB: big ? 16_384 : 8192 },
  );
  if (!report.unchanged) {
    writeFileSync(reportPath, JSON.stringify({ ...report, builtAt: new Date().toISOString() }));
    return { report, builtAt: undefined };
  }
  if (!existsSync(reportPath)) return { report, builtAt: 'an earlier run (its figures were not kept)' };
  const kept = JSON.parse(readFileSync(reportPath, 'utf8')) as ScaleBuildReport & { builtAt: string };
  return { report: { ...scaleBuildReportSchema.parse(kept), unchanged: true }, builtAt: kept.builtAt };
}

/** Builds (or reuses) and probes the distinct corpus at `target` sections (undefined: the real corpora alone). */
export async function measureDistinctPoint(target: number | undefined, options: DistinctOptions): Promise<ScalePoint> {
  const { log } = options;
  const label = target === undefined ? 'five corpora as they are' : compactCount(target);
  const dir = join(options.work, 'scale-distinct', target === undefined ? 'as-is' : String(target));
  mkdirSync(dir, { recursive: true });
  const corpusDirs = DISTINCT_CORPORA.map((c) => join(options.corporaRoot, c));
  const mixed = target === undefined ? undefined : mixedCorpus(dir, corpusDirs, target, log);
  log(`scale distinct ${label}: building`);
  const big = (target ?? 0) > 200_000;
  const { report, builtAt } = await build(dir, mixed ? [...corpusDirs, mixed.corpus] : corpusDirs, log, big);
  const index = folderBytes((await currentBuildDir(join(dir, 'index')))!);
  log(
    `scale distinct ${label}: ${report.sections} sections ${builtAt ? `(index reused, built ${builtAt})` : `built in ${report.seconds.toFixed(1)} s`}; probing`,
  );
  const probe = await runProbe(
    'scale/scale-probe',
    [
      '--index',
      join(dir, 'index'),
      ...options.queriesFiles.flatMap((q) => ['--queries', q]),
      '--rounds',
      String(options.rounds),
    ],
    scaleProbeReportSchema,
    { log, ...(big ? { maxOldSpaceMB: 12_288 } : {}) },
  );
  const point: ScalePoint = {
    ...(target === undefined ? {} : { target }),
    ...(mixed ? { grown: { documents: mixed.documents, seconds: mixed.seconds } } : {}),
    build: report,
    ...(builtAt ? { builtAt } : {}),
    index,
    probe,
  };
  log(`scale point ${JSON.stringify(point)}`);
  return point;
}
