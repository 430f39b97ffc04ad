import type { BenchResults } from './results.js';
import { signedMs } from './summary-format.js';
import { scaleRatios } from './summary-scale.js';

/** The ratios table of bench/results/summary.md: each part's headline ratio, from the one run. */
export function ratioRows(r: BenchResults): string[] {
  const ratios: string[] = [];
  if (r.http)
    ratios.push(
      `| HTTP p50 (1 session) / in-process p50 | ${r.http.httpOverInProcess.toFixed(2)}× (${signedMs(r.http.overheadP50Ms)} ms) |`,
    );
  if (r.http && r.http.levels.length > 1) {
    const one = r.http.levels[0]!;
    const most = r.http.levels[r.http.levels.length - 1]!;
    ratios.push(
      `| HTTP throughput, ${most.sessions} sessions / 1 session | ${(most.throughput / one.throughput).toFixed(2)}× (${most.throughput.toFixed(0)} vs ${one.throughput.toFixed(0)} calls/s) |`,
    );
  }
  for (const f of r.http?.floor.ratios ?? [])
    ratios.push(
      `| HTTP at ${f.sessions} session(s), svc-docs / the MCP SDK's floor: p50, p95, server CPU per call, calls/s | ${f.p50.toFixed(2)}×, ${f.p95.toFixed(2)}×, ${f.serverCpuPerCall.toFixed(2)}×, ${f.throughput.toFixed(2)}× |`,
    );
  if (r.latency)
    ratios.push(
      `| vector stage with the graph searched, exact / HNSW (argocd, p50) | ${r.latency.exactOverHnsw.toFixed(2)}× |`,
    );
  if (r.latency)
    ratios.push(
      `| in-process search, shipped / plain BM25 floor (argocd), p50 and p95 | ${r.latency.shippedOverFloor.p50.toFixed(1)}×, ${r.latency.shippedOverFloor.p95.toFixed(1)}× |`,
      `| … the shipped engine without its vector side / the floor, p50 and p95 | ${r.latency.lexicalOnlyOverFloor.p50.toFixed(1)}×, ${r.latency.lexicalOnlyOverFloor.p95.toFixed(1)}× |`,
    );
  if (r.indexing)
    ratios.push(
      `| full build / one-file incremental reindex (largest page, in the benchmark's process: worker kept, none kept; one-shot in a new process; one-shot, median-sized page; serve --watch's kept reindexer, everything counted: largest page, median-sized page) | ${r.indexing.fullOverIncremental.toFixed(1)}×, ${(r.indexing.fullBuildSeconds / r.indexing.incrementalNoWorkerSeconds).toFixed(1)}×; ${(r.indexing.fullBuildSeconds / r.indexing.oneShotSeconds).toFixed(1)}×; ${(r.indexing.fullBuildSeconds / r.indexing.oneShotMedianPage.seconds).toFixed(1)}×; ${(r.indexing.fullBuildSeconds / r.indexing.watch.nextSeconds).toFixed(1)}×, ${(r.indexing.fullBuildSeconds / r.indexing.watch.medianPageSeconds).toFixed(1)}× |`,
    );
  if (r.indexing)
    ratios.push(
      `| \`svc-docs index\` spawned and timed to its exit, everything counted: full build / after a one-file edit (largest page, median-sized page) | ${(r.indexing.cli.fullBuildSeconds / r.indexing.cli.largestPageSeconds).toFixed(1)}×, ${(r.indexing.cli.fullBuildSeconds / r.indexing.cli.medianPageSeconds).toFixed(1)}× |`,
    );
  if (r.scale) ratios.push(...scaleRatios(r.scale));
  return ratios;
}
