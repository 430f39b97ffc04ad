import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { embeddingText } from '../indexer/section-text.js';
import type { Embedder } from '../src/embedding/types.js';
import { currentBuildDir, readIndex } from '../src/index/read-index.js';
import { runProbe } from './child-process.js';
import { compactCount, lineChartSvg } from './scale-chart.js';
import { scaleBuildReportSchema, type ScaleBuildReport } from './scale-build.js';
import { writeCopies, type CopiesWritten } from './scale-corpus.js';
import { scaleProbeReportSchema, type ScaleProbeReport } from './scale-probe.js';

/**
 * Latency, HNSW recall, build time, index size and server memory as the corpus grows: the base
 * corpus as it is, then grown with perturbed versioned copies (scale-corpus.ts) to each size.
 * Each build and each probe runs in a child process of its own (scale-build.ts, scale-probe.ts),
 * so one size's memory never counts towards another's.
 */

export interface ScalePoint {
  /** Sections asked for; undefined for the base corpus as it is. */
  target?: number;
  copies?: CopiesWritten & { seconds: number };
  build: ScaleBuildReport;
  index: { bytes: number; files: Record<string, number> };
  probe: ScaleProbeReport;
}

export interface ScaleReport {
  /** The real model's embedding speed here (sections/s), to tell what a build embedding every copy would take. */
  embedSectionsPerSecond: number;
  points: ScalePoint[];
  notRun: { sections: number; reason: string }[];
}

export interface ScaleOptions {
  /** The base corpus: the folder of one knowledge base, Markdown at its top, e.g. ../shared/corpora/argocd. */
  corpusRoot: string;
  /** The base corpus's index (its vectors seed the copies'). */
  baseIndexDir: string;
  queriesFile: string;
  work: string;
  sizes: number[];
  rounds: number;
  /** Sizes left out on purpose, and why (from the measured ones). */
  skipped: number[];
  embedder: Embedder;
  log: (line: string) => void;
}

const BUDGET_MINUTES = 30;
const MACHINE_GB = Math.round(totalmem() / 2 ** 30);

function folderBytes(dir: string): { bytes: number; files: Record<string, number> } {
  const files: Record<string, number> = {};
  for (const name of readdirSync(dir)) files[name] = statSync(join(dir, name)).size;
  return { bytes: Object.values(files).reduce((a, b) => a + b, 0), files };
}

async function embedRate(embedder: Embedder, texts: string[]): Promise<number> {
  const sample = texts.slice(0, 512);
  const started = performance.now();
  for (let i = 0; i < sample.length; i += 64) await embedder.embed(sample.slice(i, i + 64));
  return sample.length / ((performance.now() - started) / 1000);
}

export async function measureScale(options: ScaleOptions): Promise<ScaleReport> {
  const { log, work } = options;
  const base = await readIndex(options.baseIndexDir);
  const kbs = base.manifest.corpus.knowledgeBases;
  if (kbs.length !== 1)
    throw new Error(
      `the scale benchmark grows a corpus of one knowledge base; ${options.baseIndexDir} holds ${kbs.join(', ')}`,
    );
  const kb = kbs[0]!;
  const embedSectionsPerSecond = await embedRate(
    options.embedder,
    base.sections.map((s) => embeddingText(base.documents[s.doc]!.title, s)),
  );
  rmSync(join(work, 'scale'), { recursive: true, force: true });
  const points: ScalePoint[] = [];
  const notRun: ScaleReport['notRun'] = [];
  for (const target of [undefined, ...options.sizes]) {
    const label = target === undefined ? `${kb} as is` : compactCount(target);
    const dir = join(work, 'scale', target === undefined ? 'base' : String(target));
    mkdirSync(dir, { recursive: true });
    const corpusDirs = [options.corpusRoot];
    let copies: ScalePoint['copies'];
    if (target !== undefined) {
      const started = performance.now();
      const written = writeCopies(
        options.corpusRoot,
        base.documents,
        join(dir, 'corpus'),
        target - base.sections.length,
      );
      copies = { ...written, seconds: (performance.now() - started) / 1000 };
      corpusDirs.push(join(dir, 'corpus'));
      log(
        `scale ${label}: wrote ${written.documents} perturbed copies (${written.versions} versions) in ${copies.seconds.toFixed(1)} s; building`,
      );
    } else {
      log(`scale ${label}: building`);
    }
    const indexDir = join(dir, 'index');
    const build = await runProbe(
      'scale-build',
      [
        ...corpusDirs.flatMap((c) => ['--corpus', c]),
        '--out',
        indexDir,
        '--base-index',
        options.baseIndexDir,
        '--vector-cache',
        join(dir, 'vectors'),
      ],
      scaleBuildReportSchema,
      { log, maxOldSpaceMB: (target ?? 0) > 200_000 ? 16_384 : 8192 },
    );
    rmSync(join(dir, 'corpus'), { recursive: true, force: true });
    rmSync(join(dir, 'vectors'), { recursive: true, force: true });
    const index = folderBytes((await currentBuildDir(indexDir))!);
    log(
      `scale ${label}: ${build.sections} sections built in ${build.seconds.toFixed(1)} s (${build.embedded} sections embedded, ${build.reused} copies reused their original's vector); probing`,
    );
    // A 1M-section server holds a few GB of sections in its heap: more than Node's default limit.
    const probeHeap = (target ?? 0) > 200_000 ? { maxOldSpaceMB: 12_288 } : {};
    const probe = await runProbe(
      'scale-probe',
      ['--index', indexDir, '--queries', options.queriesFile, '--rounds', String(options.rounds)],
      scaleProbeReportSchema,
      { log, ...probeHeap },
    );
    const v = probe.vectorSearch;
    log(
      `scale ${label}: load ${probe.loadMs.toFixed(0)} ms, p50 ${probe.total.p50.toFixed(1)} ms, p95 ${probe.total.p95.toFixed(1)} ms, recall@10 ${probe.recall10.toFixed(3)} (by id ${probe.recall10ById.toFixed(3)}; M ${v.m}, efSearch ${v.efSearch}), exact ${v.exactMs.toFixed(1)} ms, serving RSS ${probe.memory.servingMB.toFixed(0)} MB; ` +
        `sweep ${v.sweep.map((w) => `ef ${w.efSearch}: ${w.recall10.toFixed(3)} in ${w.ms.toFixed(2)} ms`).join(', ')}`,
    );
    // The index stays (until the next run) so a probe can be re-run on it; the corpus copies are gone.
    const point: ScalePoint = { ...(target === undefined ? {} : { target, copies }), build, index, probe };
    // The whole point in the log: a long run that dies later still leaves what it measured.
    log(`scale point ${JSON.stringify(point)}`);
    points.push(point);
  }
  notRun.push(...options.skipped.map((sections) => ({ sections, reason: whyNot(sections, points) })));
  return { embedSectionsPerSecond, points, notRun };
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

/** bench/results/scale.svg: query latency and server memory against the number of sections. */
export function scaleChart(report: ScaleReport): string {
  const xy = (f: (p: ScalePoint) => number) => report.points.map((p) => ({ x: p.build.sections, y: f(p) }));
  return lineChartSvg(
    [
      {
        title: 'Query latency (hybrid, in-process)',
        yLabel: 'ms',
        series: [
          { name: 'p50', color: '#1f77b4', points: xy((p) => p.probe.total.p50) },
          { name: 'p95', color: '#d62728', points: xy((p) => p.probe.total.p95) },
        ],
      },
      {
        title: 'Server memory (RSS)',
        yLabel: 'MB',
        series: [
          { name: 'after the queries', color: '#2ca02c', points: xy((p) => p.probe.memory.servingMB) },
          { name: 'after a full GC', color: '#ff7f0e', points: xy((p) => p.probe.memory.afterGcMB) },
          { name: 'model loaded, no index', color: '#7f7f7f', points: xy((p) => p.probe.memory.modelMB) },
        ],
      },
    ],
    'sections in the index (log scale)',
    'svc-docs scale benchmark: Argo CD docs grown with perturbed versioned copies (npm run bench, part scale)',
    report.notRun.map((n) => ({ x: n.sections, text: `${compactCount(n.sections)}: not run (see summary)` })),
  );
}
