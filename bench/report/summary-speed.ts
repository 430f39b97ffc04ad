import type { ColdStartReport } from '../speed/coldstart.js';
import type { HttpReport } from '../speed/http.js';
import type { IndexingReport } from '../speed/indexing.js';
import type { LatencyReport } from '../speed/latency.js';
import { MAX_LEXICAL_CANDIDATES } from '../../src/search/candidate-slots.js';
import { mb, ms, signedMs, tableHead } from './summary-format.js';
import { memoryLines } from './summary-memory.js';

/** The speed sections of bench/results/summary.md: in-process latency, indexing, HTTP and cold start. */

export function latencyLines(l: LatencyReport): string[] {
  const lines: string[] = [];
  lines.push(
    `## Query latency in-process (argocd, ${l.queries} queries), ms`,
    '',
    ...tableHead(['stage', 'p50', 'p95', 'p99']),
  );
  for (const [stage, p] of Object.entries(l.hnsw))
    lines.push(`| ${stage} | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(p.p99)} |`);
  lines.push(
    `| floor: embed the query alone | ${ms(l.embedFloor.p50)} | ${ms(l.embedFloor.p95)} | ${ms(l.embedFloor.p99)} |`,
  );
  lines.push(
    `| vector stage with the graph searched (a sentence model's path), HNSW | ${ms(l.graph.hnsw.p50)} | ${ms(l.graph.hnsw.p95)} | ${ms(l.graph.hnsw.p99)} |`,
    `| … the same with exact search instead | ${ms(l.graph.exact.p50)} | ${ms(l.graph.exact.p95)} | ${ms(l.graph.exact.p99)} |`,
  );
  lines.push(
    `| floor: plain BM25 over the same sections, windows included | ${ms(l.bm25Floor.p50)} | ${ms(l.bm25Floor.p95)} | ${ms(l.bm25Floor.p99)} |`,
    `| the shipped engine without its vector side (no query vector, no cosines) | ${ms(l.lexicalOnly.p50)} | ${ms(l.lexicalOnly.p95)} | ${ms(l.lexicalOnly.p99)} |`,
  );
  lines.push(
    '',
    `With the default static model the graph is not searched (its neighbours changed no labelled answer; bench/results/tuning.md): vectorMs above is choosing the lexical candidates (the best ${MAX_LEXICAL_CANDIDATES.toLocaleString('en-US')} by score) and their cosines. With the graph searched, median vector stage exact / HNSW: ${l.exactOverHnsw.toFixed(2)}×. Shipped search / plain BM25 floor, same queries, same run: ${l.shippedOverFloor.p50.toFixed(1)}× at p50, ${l.shippedOverFloor.p95.toFixed(1)}× at p95 (goal: ≤ 3×). Without its vector side, timed next to both: ${l.lexicalOnlyOverFloor.p50.toFixed(1)}× at p50, ${l.lexicalOnlyOverFloor.p95.toFixed(1)}× at p95 (what that costs in answers: bench/results/tuning.md, 2026-11-24).`,
    '',
  );
  return lines;
}

export function indexingLines(i: IndexingReport): string[] {
  const lines: string[] = [];
  lines.push('## Indexing (argocd)', '');
  lines.push(
    `Full build: ${i.documents} documents, ${i.sections} sections in ${i.fullBuildSeconds.toFixed(1)} s (${i.sectionsPerSecond.toFixed(0)} sections/s).`,
  );
  lines.push(
    `One-file edit (the largest page) reindexed in ${i.incrementalSeconds.toFixed(2)} s, embedding ${i.incrementalSectionsEmbedded} sections: ${i.fullOverIncremental.toFixed(1)}× faster than the full build, in the benchmark's process right after the builds before (their parser worker kept, their code compiled); ${i.incrementalNoWorkerSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.incrementalNoWorkerSeconds).toFixed(1)}× in that process with no worker kept (the file parsed on the calling thread instead of starting one). As a one-shot \`svc-docs index\` does it, in a new process running the compiled indexer: ${i.oneShotSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.oneShotSeconds).toFixed(1)}× (goal: ≥ 20×; the page is ${Math.round(i.editedPageBytes / 1000)} KB, the corpus's largest: parsing it cold is the largest single cost); a median-sized page (${(i.oneShotMedianPage.bytes / 1000).toFixed(1)} KB) edited the same way: ${i.oneShotMedianPage.seconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.oneShotMedianPage.seconds).toFixed(1)}×. None of these counts process start, imports or model load. \`serve --watch\` keeps its reindexer process between edits (src/reindex-process.ts): the first edit after the server starts took ${i.watch.firstSeconds.toFixed(2)} s from request to answer (the process started, everything counted), each further edit of the largest page ${i.watch.nextSeconds.toFixed(2)} s (median of three; the model kept, the check that its files are unchanged and the IPC counted): ${(i.fullBuildSeconds / i.watch.nextSeconds).toFixed(1)}× faster than the full build; each edit of the median-sized page ${i.watch.medianPageSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.watch.medianPageSeconds).toFixed(1)}×; the kept process's RSS after them, held while it waits for the next edit: ${Math.round(i.watch.keptRssMB)} MB. No-change reindex: ${i.noChangeSeconds.toFixed(2)} s. What a user waits for, the compiled \`svc-docs index\` from spawn to exit (Node's start, imports, model load and exit counted; median of three): ${i.cli.largestPageSeconds.toFixed(2)} s after an edit of the largest page (${(i.cli.fullBuildSeconds / i.cli.largestPageSeconds).toFixed(1)}× faster than its full build from nothing, cold vector cache: ${i.cli.fullBuildSeconds.toFixed(2)} s), ${i.cli.medianPageSeconds.toFixed(2)} s after an edit of the median-sized page (${(i.cli.fullBuildSeconds / i.cli.medianPageSeconds).toFixed(1)}×), ${i.cli.noChangeSeconds.toFixed(2)} s with nothing changed.`,
    '',
  );
  return lines;
}

/** `cpus`: the machine's cores (the client shares them with the server). */
export function httpLines(h: HttpReport, cpus: number): string[] {
  const lines: string[] = [];
  lines.push(`## End to end over HTTP (argocd, ${h.queries} queries), ms`, '');
  lines.push(
    `The compiled server (\`svc-docs serve\`) in its own process on 127.0.0.1 (ephemeral port), driven by the MCP SDK client (Client + StreamableHTTPClientTransport) from the benchmark process on the same ${cpus}-core machine. Each session initializes, lists tools, makes one warm-up call, then its SearchDocs calls one after another; all sessions run at once. Latency is measured by the client, per call.`,
    '',
    ...tableHead([
      'sessions',
      'calls (each)',
      'p50',
      'p95',
      'p99',
      'throughput (calls/s)',
      'errors',
      'server CPU per call (ms)',
      'client CPU per call (ms)',
      'server RSS after (MB)',
    ]),
  );
  for (const l of h.levels) {
    lines.push(
      `| ${l.sessions} | ${l.calls} (${l.callsPerSession}) | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${l.throughput.toFixed(0)} | ${l.errors} | ${ms(l.serverCpuMsPerCall)} | ${ms(l.clientCpuMsPerCall)} | ${mb(l.serverRssMB)} |`,
    );
  }
  lines.push(
    '',
    `In-process \`engine.search\` in the benchmark process on the same index and queries: p50 ${ms(h.inProcessP50)} ms. HTTP at one session: ${h.httpOverInProcess.toFixed(2)}× that (${signedMs(h.overheadP50Ms)} ms), for MCP framing, JSON, rendering the result, HTTP and the client's schema validation; the server's CPU per call, next to the in-process search time, is the steadier measure of that cost on a busy machine.`,
    '',
  );
  lines.push(...floorLines(h));
  lines.push(...memoryLines(h));
  return lines;
}

export function coldStartLines(c: ColdStartReport): string[] {
  const lines: string[] = [];
  const p = c.parts;
  lines.push('## Cold start (argocd index), ms', '');
  lines.push(
    `Spawned \`svc-docs serve --no-build\` to \`/readyz\` answering 200: median ${c.readyP50.toFixed(0)} ms over ${c.runs} starts (${c.readyMs.map((x) => x.toFixed(0)).join(', ')}); index files in the page cache.`,
    '',
  );
  lines.push(
    `The same steps timed inside a fresh process (median of ${c.probeRuns}):`,
    '',
    ...tableHead(['step', 'ms']),
  );
  lines.push(`| Node start-up and imports (engine, HTTP, MCP SDK) | ${p.importsMs.toFixed(0)} |`);
  lines.push(`| load the model | ${p.modelMs.toFixed(0)} |`);
  if (p.modelChecksumMs !== undefined)
    lines.push(`| … of which hashing the model files (checked against the index) | ${p.modelChecksumMs.toFixed(0)} |`);
  lines.push(`| load the index (openEngine) | ${p.indexMs.toFixed(0)} |`);
  lines.push(`| … of which reading, verifying and parsing its files (readIndex) | ${p.indexReadMs.toFixed(0)} |`);
  lines.push(`| listen (HTTP) | ${p.listenMs.toFixed(0)} |`);
  lines.push(`| **ready, from process start** | **${p.readyMs.toFixed(0)}** |`);
  lines.push(`| first query after that (cold code paths) | ${p.firstQueryMs.toFixed(0)} |`);
  lines.push(
    `| not in the probe: what the CLI imports on top (commander, the command definitions) | ${p.cliImportsMs.toFixed(0)} |`,
    '',
  );
  return lines;
}

/** svc-docs against the MCP SDK's own floor, from the same interleaved run (bench/speed/floor.ts). */
function floorLines(h: HttpReport): string[] {
  const f = h.floor;
  const lines = [
    "### Against the MCP SDK's own floor, same run, interleaved",
    '',
    `The floor: ${f.server}. Each level ran in ${f.rounds} rounds alternating the two servers; answers ${f.answerCharsP50.toFixed(0)} characters (median). Goals: p50 at 1 session ≤ 2×, server CPU per call at 8 sessions ≤ 3×, calls/s at 8 sessions ≥ 0.6×.`,
    '',
    '| sessions | floor p50 | floor p95 | floor calls/s | floor server CPU per call (ms) | svc ÷ floor: p50 | p95 | server CPU per call | calls/s |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  f.floorLevels.forEach((l, i) => {
    const r = f.ratios[i]!;
    lines.push(
      `| ${l.sessions} | ${ms(l.p50)} | ${ms(l.p95)} | ${l.throughput.toFixed(0)} | ${ms(l.serverCpuMsPerCall)} | ${r.p50.toFixed(2)}× | ${r.p95.toFixed(2)}× | ${r.serverCpuPerCall.toFixed(2)}× | ${r.throughput.toFixed(2)}× |`,
    );
  });
  lines.push('');
  return lines;
}
