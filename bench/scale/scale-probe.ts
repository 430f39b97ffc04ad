import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { currentBuildDir, readBuildGraph, readManifest } from '../../src/index/read-index.js';
import type { VectorMatrix } from '../../src/index/vector-index.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { memoryOf } from '../lib/child-process.js';
import { mean, percentile } from '../lib/metrics.js';
import { loadQuerySet } from '../queries.js';
import { runIfEntry } from '../lib/probe-entry.js';
import { cacheDirOf } from '../../src/settings/commands.js';

/**
 * Child process of the scale benchmark: what a server holding this index costs and how fast it
 * answers. Loads the index as the server does (openEngine: the graph is not read, the postings and
 * section text stay on disk), runs the labelled queries, times the lexical stage pruned and
 * exhaustive, compares HNSW with exact search, and reports its own memory (taken before the
 * comparisons, which read the graph and a second engine).
 *
 * node --expose-gc bench/scale/scale-probe.js --index DIR --queries FILE… --rounds N
 */

const pct = z.object({ p50: z.number(), p95: z.number(), p99: z.number() });
export const scaleProbeReportSchema = z.object({
  loadMs: z.number(),
  queries: z.number(),
  total: pct,
  /**
   * CPU time of the process per search (user + system, ms): what the search costs whatever else
   * the machine runs, where wall times on a loaded machine include waiting for a core.
   */
  cpu: pct,
  /** Medians of the engine's stages. */
  stagesP50: z.object({
    embedMs: z.number(),
    lexicalMs: z.number(),
    vectorMs: z.number(),
    fuseMs: z.number(),
    windowMs: z.number(),
  }),
  /**
   * The lexical stage alone, as shipped (MaxScore pruning for long posting lists), pruning every
   * query it can ('always') and scoring every match, timed interleaved in this process after the
   * memory figures were taken: p50 and p95, ms.
   */
  lexical: z.object({
    pruned: z.object({ p50: z.number(), p95: z.number() }),
    always: z.object({ p50: z.number(), p95: z.number() }),
    exhaustive: z.object({ p50: z.number(), p95: z.number() }),
  }),
  /** Ties with the exact k-th neighbour count as found (see recall); recall10ById does not. */
  recall10: z.number(),
  recall10ById: z.number(),
  /** At the engine's vectorCandidates (what fusion actually receives). */
  recallCandidates: z.object({ k: z.number(), recall: z.number() }),
  /**
   * RSS: before anything is loaded, with the model, right after loading the index, after the
   * queries (what the OS sees while serving), and after a full garbage collection (what the
   * index really holds); the peak; and the JS heap in use after that collection.
   */
  /**
   * HNSW against exact search on the same query vectors, at the manifest's parameters and at other
   * efSearch values (a sweep, to tune hnswParamsFor): median time per search and recall@10.
   */
  vectorSearch: z.object({
    m: z.number(),
    efConstruction: z.number(),
    efSearch: z.number(),
    exactMs: z.number(),
    sweep: z.array(z.object({ efSearch: z.number(), recall10: z.number(), ms: z.number() })),
  }),
  memory: z.object({
    baselineMB: z.number(),
    modelMB: z.number(),
    loadedMB: z.number(),
    servingMB: z.number(),
    afterGcMB: z.number(),
    peakMB: z.number(),
    heapUsedMB: z.number(),
  }),
});
export type ScaleProbeReport = z.infer<typeof scaleProbeReportSchema>;

/** Exact top-k by cosine (unit vectors: dot product), without sorting every row. */
export function exactTopK({ dims, data }: VectorMatrix, query: Float32Array, k: number): number[] {
  const ids = new Int32Array(k).fill(-1);
  const sims = new Float64Array(k).fill(-Infinity);
  const rows = data.length / dims;
  for (let row = 0; row < rows; row++) {
    let dot = 0;
    for (let d = 0, base = row * dims; d < dims; d++) dot += data[base + d]! * query[d]!;
    if (dot <= sims[k - 1]!) continue;
    let at = k - 1;
    for (; at > 0 && sims[at - 1]! < dot; at--) {
      sims[at] = sims[at - 1]!;
      ids[at] = ids[at - 1]!;
    }
    sims[at] = dot;
    ids[at] = row;
  }
  return Array.from(ids).filter((id) => id >= 0);
}

/** Share of `exact` that `approx` found, by id. */
function recallById(approx: number[], exact: number[]): number {
  const found = new Set(approx);
  return exact.length === 0 ? 1 : exact.filter((id) => found.has(id)).length / exact.length;
}

function similarity({ dims, data }: VectorMatrix, query: Float32Array, row: number): number {
  let dot = 0;
  for (let d = 0, base = row * dims; d < dims; d++) dot += data[base + d]! * query[d]!;
  return dot;
}

/**
 * Share of the exact top k that `approx` (its first k) matched, a tie counting as a match (as
 * ann-benchmarks counts it): copies of a section whose text came out unchanged share its vector
 * exactly, and which of several equal neighbours comes first is arbitrary, for exact search too.
 */
function recall(matrix: VectorMatrix, query: Float32Array, approx: number[], exact: number[]): number {
  if (exact.length === 0) return 1;
  const kth = similarity(matrix, query, exact[exact.length - 1]!) - 1e-6;
  return approx.slice(0, exact.length).filter((id) => similarity(matrix, query, id) >= kth).length / exact.length;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const MB = 2 ** 20;

type Stages = Record<keyof ScaleProbeReport['stagesP50'], number[]>;

/** The shipped search over `queries`, `rounds` times: each search's total time and its stages' times. */
async function serve(
  engine: LoadedEngine,
  queries: string[],
  rounds: number,
): Promise<{ totals: number[]; cpu: number[]; stages: Stages }> {
  for (const q of queries.slice(0, 5)) await engine.search(q);
  const totals: number[] = [];
  const cpu: number[] = [];
  const stages: Stages = { embedMs: [], lexicalMs: [], vectorMs: [], fuseMs: [], windowMs: [] };
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const t = performance.now();
      const before = process.cpuUsage();
      const { timings } = await engine.searchDetailed(q);
      const used = process.cpuUsage(before);
      totals.push(performance.now() - t);
      cpu.push((used.user + used.system) / 1000);
      for (const k of Object.keys(stages) as (keyof Stages)[]) stages[k].push(timings[k]);
    }
  }
  return { totals, cpu, stages };
}

/**
 * The lexical stage as shipped (MaxScore pruning for queries with long posting lists), with
 * pruning for every query it can serve, and scoring every match, interleaved query by query in
 * this one process: the median and 95th percentile of each, ms of wall time.
 */
async function lexicalPruning(
  engine: LoadedEngine,
  indexDir: string,
  queries: string[],
): Promise<ScaleProbeReport['lexical']> {
  const other = (lexicalPruning: false | 'always') =>
    openEngine(indexDir, { embedder: engine.embedder }, { lexicalPruning });
  const engines = [engine, await other('always'), await other(false)];
  // A pass over every query first, as the shipped engine had: each engine folds a term's postings on its first query.
  for (const e of engines.slice(1)) for (const q of queries) await e.search(q);
  const times: number[][] = engines.map(() => []);
  for (const q of queries)
    for (const [i, e] of engines.entries()) times[i]!.push((await e.searchDetailed(q)).timings.lexicalMs);
  for (const e of engines.slice(1)) await e.releaseIndex();
  const [pruned, always, exhaustive] = times.map((xs) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95) }));
  return { pruned: pruned!, always: always!, exhaustive: exhaustive! };
}

/** HNSW against exact search on the queries' vectors, at the manifest's efSearch and others. */
async function vectorSearch(engine: LoadedEngine, queries: string[]) {
  const { manifest, vectors: matrix, buildDir } = engine.index;
  // The graph a static model's hybrid search never reads: read now, for its recall.
  const graph = await readBuildGraph(buildDir, manifest);
  const k = manifest.fusion.vectorCandidates;
  const vectors = await engine.embedder.embed(queries);
  const exactMs: number[] = [];
  const exactTop: number[][] = [];
  const recall10: number[] = [];
  const recallK: number[] = [];
  const recall10ById: number[] = [];
  for (const v of vectors) {
    const t = performance.now();
    const exact = exactTopK(matrix, v, k);
    exactMs.push(performance.now() - t);
    exactTop.push(exact);
    const approx = graph.search(v, k).ids;
    recall10.push(recall(matrix, v, approx.slice(0, 10), exact.slice(0, 10)));
    recall10ById.push(recallById(approx.slice(0, 10), exact.slice(0, 10)));
    recallK.push(recall(matrix, v, approx, exact));
  }
  const { hnsw } = manifest;
  const sweep = [...new Set([64, 128, 256, hnsw.efSearch, 512, 800])]
    .sort((a, b) => a - b)
    .map((efSearch) => {
      graph.setEfSearch(efSearch);
      const times: number[] = [];
      const found = vectors.map((v, i) => {
        const t = performance.now();
        const ids = graph.search(v, 10).ids;
        times.push(performance.now() - t);
        return recall(matrix, v, ids, exactTop[i]!.slice(0, 10));
      });
      return { efSearch, recall10: mean(found), ms: percentile(times, 50) };
    });
  return {
    recall10: mean(recall10),
    recallCandidates: { k, recall: mean(recallK) },
    recall10ById: mean(recall10ById),
    vectorSearch: {
      m: hnsw.m,
      efConstruction: hnsw.efConstruction,
      efSearch: hnsw.efSearch,
      exactMs: percentile(exactMs, 50),
      sweep,
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      index: { type: 'string' },
      queries: { type: 'string', multiple: true },
      rounds: { type: 'string' },
    },
  });
  const indexDir = values.index!;
  const queries = (values.queries ?? []).flatMap((file) => loadQuerySet(file).queries.map((q) => q.query));
  gc();
  const baselineMB = memoryOf('self').rssMB;
  const manifest = await readManifest((await currentBuildDir(indexDir))!);
  // As the server loads it: the table's rows are read from the model file (pool-engine.ts).
  const embedder = await loadEmbedder({
    model: manifest.model.id,
    tableRows: 'file',
    cacheDir: cacheDirOf(process.env),
  });
  gc();
  const modelMB = memoryOf('self').rssMB;
  const started = performance.now();
  const engine = await openEngine(indexDir, { embedder });
  const loadMs = performance.now() - started;
  const loadedMB = memoryOf('self').rssMB;
  const { totals, cpu, stages } = await serve(engine, queries, Number(values.rounds ?? '1'));
  const servingMB = memoryOf('self').rssMB;
  const { peakMB } = memoryOf('self');
  gc();
  const afterGcMB = memoryOf('self').rssMB;
  const heapUsedMB = process.memoryUsage().heapUsed / MB;
  const lexical = await lexicalPruning(engine, indexDir, queries);
  const report: ScaleProbeReport = {
    loadMs,
    queries: totals.length,
    total: { p50: percentile(totals, 50), p95: percentile(totals, 95), p99: percentile(totals, 99) },
    cpu: { p50: percentile(cpu, 50), p95: percentile(cpu, 95), p99: percentile(cpu, 99) },
    stagesP50: {
      embedMs: percentile(stages.embedMs, 50),
      lexicalMs: percentile(stages.lexicalMs, 50),
      vectorMs: percentile(stages.vectorMs, 50),
      fuseMs: percentile(stages.fuseMs, 50),
      windowMs: percentile(stages.windowMs, 50),
    },
    lexical,
    ...(await vectorSearch(engine, queries)),
    memory: { baselineMB, modelMB, loadedMB, servingMB, afterGcMB, peakMB, heapUsedMB },
  };
  await engine.close();
  await embedder.dispose();
  console.log(JSON.stringify(report));
}

runIfEntry('scale/scale-probe.js', main);
