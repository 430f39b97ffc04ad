import { mkdirSync, rmSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { embeddingText } from '../../indexer/write/section-text.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { runProbe } from '../lib/child-process.js';
import { compactCount, lineChartSvg } from './scale-chart.js';
import { scaleBuildReportSchema } from './scale-build.js';
import { writeCopies } from './scale-corpus.js';
import { measureDistinctPoint } from './scale-distinct.js';
import { folderBytes, type ScalePoint } from './scale-point.js';
import { scaleProbeReportSchema } from './scale-probe.js';

/**
 * Latency, HNSW recall, build time, index size and server memory as the corpus grows, on two
 * corpora reported apart. The distinct corpus (scale-distinct.ts): the five real corpora, then
 * pages recombined from them to each size, every section its own and embedded for real: what a
 * team with a big docs site would see. The near-duplicate stress case: the Argo CD docs grown
 * with perturbed versioned copies (scale-corpus.ts), whose vectors cluster tightly, which is hard
 * for HNSW. Each build and each probe runs in a child process of its own (scale-build.ts,
 * scale-probe.ts), so one size's memory never counts towards another's.
 */

export interface ScaleSeries {
  points: ScalePoint[];
  notRun: { sections: number; reason: string }[];
}

export interface ScaleReport {
  /** The real model's embedding speed here (sections/s): what a build that embeds every section takes. */
  embedSectionsPerSecond: number;
  distinct: ScaleSeries;
  copies: ScaleSeries;
}

export interface ScaleOptions {
  /** The base corpus of the copies: one knowledge base, Markdown at its top, e.g. ../shared/corpora/argocd. */
  corpusRoot: string;
  /** The base corpus's index (its vectors seed the copies'). */
  baseIndexDir: string;
  queriesFile: string;
  /** The distinct corpus: where the real corpora are, and the labelled sets' queries it is probed with. */
  corporaRoot: string;
  distinctQueriesFiles: string[];
  work: string;
  /** Sizes of the distinct corpus (in recombined pages' sections; the real corpora come on top) and of the copies. */
  distinctSizes: number[];
  sizes: number[];
  rounds: number;
  /** Sizes of the copies left out on purpose, and why (from the measured ones). */
  skipped: number[];
  embedder: Embedder;
  log: (line: string) => void;
}

const BUDGET_MINUTES = 30;
const MACHINE_GB = Math.round(totalmem() / 2 ** 30);

async function embedRate(embedder: Embedder, texts: string[]): Promise<number> {
  const sample = texts.slice(0, 512);
  const started = performance.now();
  for (let i = 0; i < sample.length; i += 64) await embedder.embed(sample.slice(i, i + 64));
  return sample.length / ((performance.now() - started) / 1000);
}

export async function measureScale(options: ScaleOptions): Promise<ScaleReport> {
  const base = await readIndex(options.baseIndexDir);
  const embedSectionsPerSecond = await embedRate(
    options.embedder,
    base.sections.slice().map((s) => embeddingText(base.documents[s.doc]!.title, s)),
  );
  base.sections.close();
  const distinct: ScaleSeries = { points: [], notRun: [] };
  for (const target of [undefined, ...options.distinctSizes]) {
    distinct.points.push(
      await measureDistinctPoint(target, {
        corporaRoot: options.corporaRoot,
        queriesFiles: options.distinctQueriesFiles,
        work: options.work,
        rounds: options.rounds,
        log: options.log,
      }),
    );
  }
  return { embedSectionsPerSecond, distinct, copies: await measureCopies(options) };
}

/** The near-duplicate stress case: Argo CD as it is, then grown with perturbed copies to each size. */
async function measureCopies(options: ScaleOptions): Promise<ScaleSeries> {
  if (options.sizes.length === 0) return { points: [], notRun: [] };
  const base = await readIndex(options.baseIndexDir);
  const kbs = base.manifest.corpus.knowledgeBases;
  if (kbs.length !== 1)
    throw new Error(
      `the scale benchmark grows a corpus of one knowledge base; ${options.baseIndexDir} holds ${kbs.join(', ')}`,
    );
  base.sections.close();
  rmSync(join(options.work, 'scale'), { recursive: true, force: true });
  const points: ScalePoint[] = [];
  for (const target of [undefined, ...options.sizes]) points.push(await copiesPoint(options, base, kbs[0]!, target));
  const notRun = options.skipped.map((sections) => ({ sections, reason: whyNot(sections, points) }));
  return { points, notRun };
}

/** One size of the copies: written, built (copies reuse their original's vector) and probed. */
async function copiesPoint(
  options: ScaleOptions,
  base: Awaited<ReturnType<typeof readIndex>>,
  kb: string,
  target: number | undefined,
): Promise<ScalePoint> {
  const { log } = options;
  const label = target === undefined ? `${kb} as is` : compactCount(target);
  const dir = join(options.work, 'scale', target === undefined ? 'base' : String(target));
  mkdirSync(dir, { recursive: true });
  const corpusDirs = [options.corpusRoot];
  let copies: ScalePoint['grown'];
  if (target !== undefined) {
    const started = performance.now();
    const written = writeCopies(options.corpusRoot, base.documents, join(dir, 'corpus'), target - base.sections.length);
    copies = { ...written, seconds: (performance.now() - started) / 1000 };
    corpusDirs.push(join(dir, 'corpus'));
    log(
      `scale ${label}: wrote ${written.documents} perturbed copies (${written.versions} versions) in ${copies.seconds.toFixed(1)} s; building`,
    );
  } else {
    log(`scale ${label}: building`);
  }
  const indexDir = join(dir, 'index');
  const big = (target ?? 0) > 200_000;
  const build = await runProbe(
    'scale/scale-build',
    [
      ...corpusDirs.flatMap((c) => ['--corpus', c]),
      ...['--out', indexDir, '--base-index', options.baseIndexDir, '--vector-cache', join(dir, 'vectors')],
    ],
    scaleBuildReportSchema,
    { log, maxOldSpaceMB: big ? 16_384 : 8192 },
  );
  rmSync(join(dir, 'corpus'), { recursive: true, force: true });
  rmSync(join(dir, 'vectors'), { recursive: true, force: true });
  const index = folderBytes((await currentBuildDir(indexDir))!);
  log(
    `scale ${label}: ${build.sections} sections built in ${build.seconds.toFixed(1)} s (${build.embedded} sections embedded, ${build.reused} copies reused their original's vector); probing`,
  );
  // A 1M-section server holds a few GB of sections in its heap: more than Node's default limit.
  const probe = await runProbe(
    'scale/scale-probe',
    ['--index', indexDir, '--queries', options.queriesFile, '--rounds', String(options.rounds)],
    scaleProbeReportSchema,
    { log, ...(big ? { maxOldSpaceMB: 12_288 } : {}) },
  );
  logProbe(log, label, probe);
  // The index stays (until the next run) so a probe can be re-run on it; the corpus copies are gone.
  const point: ScalePoint = { ...(target === undefined ? {} : { target, grown: copies }), build, index, probe };
  // The whole point in the log: a long run that dies later still leaves what it measured.
  log(`scale point ${JSON.stringify(point)}`);
  return point;
}

function logProbe(log: (line: string) => void, label: string, probe: ScalePoint['probe']): void {
  const v = probe.vectorSearch;
  log(
    `scale ${label}: load ${probe.loadMs.toFixed(0)} ms, p50 ${probe.total.p50.toFixed(1)} ms, p95 ${probe.total.p95.toFixed(1)} ms, recall@10 ${probe.recall10.toFixed(3)} (by id ${probe.recall10ById.toFixed(3)}; M ${v.m}, efSearch ${v.efSearch}), exact ${v.exactMs.toFixed(1)} ms, serving RSS ${probe.memory.servingMB.toFixed(0)} MB; ` +
      `sweep ${v.sweep.map((w) => `ef ${w.efSearch}: ${w.recall10.toFixed(3)} in ${w.ms.toFixed(2)} ms`).join(', ')}`,
  );
}

/** Why a size was left out, extrapolated from the largest size measured. */
function whyNot(sections: number, points: ScalePoint[]): string {
  const largest = points.reduce((a, b) => (b.build.sections > a.build.sections ? b : a));
  const factor = sections / largest.build.sections;
  const minutes = (largest.build.seconds * factor) / 60;
  const buildGB = (largest.build.peakRssMB * factor) / 1024;
  const serverGB =
    (largest.probe.memory.modelMB + (largest.probe.memory.servingMB - largest.probe.memory.modelMB) * factor) / 1024;
  const reasons = [
    `its build would take at least ${minutes.toFixed(0)} min here (${factor.toFixed(0)}× the ${compactCount(largest.build.sections)} build, linear extrapolation; HNSW insertion grows faster)${minutes > BUDGET_MINUTES ? `, over the ${BUDGET_MINUTES}-minute budget` : ''}`,
    `its build process would peak near ${buildGB.toFixed(0)} GB and the server near ${serverGB.toFixed(0)} GB (same extrapolation), on a shared ${MACHINE_GB}-GiB machine`,
  ];
  return reasons.join('; ');
}

/** bench/results/scale.svg: query latency and server memory against the number of sections, both corpora. */
export function scaleChart(report: ScaleReport): string {
  const xy = (series: ScaleSeries, f: (p: ScalePoint) => number) =>
    series.points.map((p) => ({ x: p.build.sections, y: f(p) }));
  const { distinct, copies } = report;
  return lineChartSvg(
    [
      {
        title: 'Query latency (hybrid, in-process)',
        yLabel: 'ms',
        series: [
          { name: 'p50, distinct', color: '#1f77b4', points: xy(distinct, (p) => p.probe.total.p50) },
          { name: 'p95, distinct', color: '#d62728', points: xy(distinct, (p) => p.probe.total.p95) },
          { name: 'p50, near-copies', color: '#9ecae1', points: xy(copies, (p) => p.probe.total.p50) },
          { name: 'p95, near-copies', color: '#fc9272', points: xy(copies, (p) => p.probe.total.p95) },
        ],
      },
      {
        title: 'Server memory (RSS after the queries) and index on disk',
        yLabel: 'MB',
        series: [
          { name: 'RSS, distinct', color: '#2ca02c', points: xy(distinct, (p) => p.probe.memory.servingMB) },
          { name: 'index on disk, distinct', color: '#ff7f0e', points: xy(distinct, (p) => p.index.bytes / 2 ** 20) },
          { name: 'RSS, near-copies', color: '#a1d99b', points: xy(copies, (p) => p.probe.memory.servingMB) },
          { name: 'model loaded, no index', color: '#7f7f7f', points: xy(distinct, (p) => p.probe.memory.modelMB) },
        ],
      },
    ],
    'sections in the index (log scale)',
    'svc-docs scale benchmark: distinct recombined pages, and near-copies of Argo CD (npm run bench, part scale)',
    [...distinct.notRun, ...copies.notRun].map((n) => ({
      x: n.sections,
      text: `${compactCount(n.sections)}: not run (see summary)`,
    })),
  );
}
