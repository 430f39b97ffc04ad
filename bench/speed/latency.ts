import type { Embedder } from '../../src/embedding/types.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import type { StageTimings } from '../../src/search/searcher-types.js';
import { Bm25Floor } from '../quality/bm25-floor.js';
import { percentile } from '../lib/metrics.js';
import { RESULT_COUNT } from '../quality/response.js';

/**
 * In-process query latency by stage, next to two floors: embedding the query alone, and plain
 * BM25 over the same sections (bench/quality/bm25-floor.ts), timed in the same run on the same queries;
 * and the shipped engine without its vector side, to show what of the distance to the floor that is.
 */

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface LatencyReport {
  queries: number;
  hnsw: Record<keyof StageTimings | 'total', Percentiles>;
  /**
   * The vector stage with the graph searched, as for a sentence model (a static model's hybrid
   * search only scores its lexical candidates' cosines): through HNSW, and exact search instead.
   */
  graph: Record<'hnsw' | 'exact', Percentiles>;
  embedFloor: Percentiles;
  /** Median vector stage with the graph searched, exact search over HNSW. */
  exactOverHnsw: number;
  /** Plain BM25 over the same sections, windows included (the speed floor). */
  bm25Floor: Percentiles;
  /** Shipped search (HNSW) over the BM25 floor, at p50 and at p95. */
  shippedOverFloor: { p50: number; p95: number };
  /**
   * The shipped engine without its vector side (`retrieval: 'lexical'`: no query vector, no
   * cosines), timed next to the two above: how much of the distance to the floor the vector side is.
   */
  lexicalOnly: Percentiles;
  lexicalOnlyOverFloor: { p50: number; p95: number };
}

const pct = (xs: number[]): Percentiles => ({
  p50: percentile(xs, 50),
  p95: percentile(xs, 95),
  p99: percentile(xs, 99),
});

/** A search timed next to the engine's: it answers each query right after the engine does. */
interface Companion {
  search: (query: string) => unknown;
  ms: number[];
}

/**
 * Engine timings by stage. Each companion answers each query right after the engine, so all see
 * the same load on a busy machine (only their ratios are steady there).
 */
async function timings(
  indexDir: string,
  embedder: Embedder,
  queries: string[],
  rounds: number,
  policy: SearchPolicy,
  companions: readonly Companion[] = [],
): Promise<(StageTimings & { total: number })[]> {
  const engine = await openEngine(indexDir, { embedder }, policy);
  const out: (StageTimings & { total: number })[] = [];
  for (const q of queries.slice(0, 5)) {
    await engine.search(q); // warm-up
    for (const c of companions) await c.search(q);
  }
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const start = performance.now();
      const { timings } = await engine.searchDetailed(q);
      out.push({ ...timings, total: performance.now() - start });
      for (const c of companions) {
        const companionStart = performance.now();
        await c.search(q);
        c.ms.push(performance.now() - companionStart);
      }
    }
  }
  await engine.close();
  return out;
}

export async function measureLatency(
  indexDir: string,
  embedder: Embedder,
  queries: string[],
  rounds: number,
): Promise<LatencyReport> {
  const floorIndex = await Bm25Floor.open(indexDir);
  const bm25: Companion = { search: (q) => floorIndex.search(q, RESULT_COUNT), ms: [] };
  const lexicalEngine = await openEngine(indexDir, { embedder }, { retrieval: 'lexical' });
  const lexical: Companion = { search: (q) => lexicalEngine.search(q), ms: [] };
  const hnsw = await timings(indexDir, embedder, queries, rounds, {}, [lexical, bm25]);
  await lexicalEngine.close();
  const graphHnsw = await timings(indexDir, embedder, queries, rounds, { graphCandidates: true });
  const graphExact = await timings(indexDir, embedder, queries, rounds, {
    graphCandidates: true,
    vectorSearch: 'exact',
  });
  const floor: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const start = performance.now();
      await embedder.embed([q]);
      floor.push(performance.now() - start);
    }
  }
  const stage = (k: keyof StageTimings | 'total') => pct(hnsw.map((t) => t[k]));
  const bm25Floor = pct(bm25.ms);
  const lexicalOnly = pct(lexical.ms);
  return {
    queries: hnsw.length,
    hnsw: {
      embedMs: stage('embedMs'),
      lexicalMs: stage('lexicalMs'),
      vectorMs: stage('vectorMs'),
      fuseMs: stage('fuseMs'),
      windowMs: stage('windowMs'),
      total: stage('total'),
    },
    graph: { hnsw: pct(graphHnsw.map((t) => t.vectorMs)), exact: pct(graphExact.map((t) => t.vectorMs)) },
    embedFloor: pct(floor),
    exactOverHnsw:
      percentile(
        graphExact.map((t) => t.vectorMs),
        50,
      ) /
      percentile(
        graphHnsw.map((t) => t.vectorMs),
        50,
      ),
    bm25Floor,
    shippedOverFloor: { p50: stage('total').p50 / bm25Floor.p50, p95: stage('total').p95 / bm25Floor.p95 },
    lexicalOnly,
    lexicalOnlyOverFloor: { p50: lexicalOnly.p50 / bm25Floor.p50, p95: lexicalOnly.p95 / bm25Floor.p95 },
  };
}
