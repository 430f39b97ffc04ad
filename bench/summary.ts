import { MAX_LEXICAL_CANDIDATES } from '../src/search/candidate-slots.js';
import { memoryLines } from './summary-memory.js';
import type { BenchResults } from './run.js';
import { compactCount } from './scale-chart.js';
import { HELD_OUT_PREAMBLE, heldOutTables } from './summary-heldout.js';

/** bench/results/summary.md: the tables the README quotes. */

const f = (x: number, digits = 3) => x.toFixed(digits);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const mb = (x: number) => x.toFixed(0);
const signedMs = (x: number) => `${x < 0 ? '−' : '+'}${ms(Math.abs(x))}`;

/** A Markdown table's header row and separator. */
function tableHead(columns: string[]): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
}

export function renderSummary(r: BenchResults): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results (${r.mode})`, '');
  lines.push(
    `Run ${r.startedAt} on ${r.machine.platform}, ${r.machine.cpus} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; model \`${r.model}\`.`,
  );
  lines.push(`Command: \`npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}\`.`, '');
  if (r.quality.length > 0) {
    lines.push(
      '## What reaches the assistant: shipped engine against plain BM25, held-out halves',
      '',
      ...HELD_OUT_PREAMBLE,
    );
    for (const q of r.quality) lines.push(...heldOutTables(q.answers));
  }
  for (const q of r.quality) {
    lines.push(
      `## Quality: ${q.set}, held-out half (${q.queries} queries; ${q.documents} documents, ${q.sections} sections)`,
      '',
    );
    lines.push(...tableHead(['system', 'nDCG@10', 'Recall@5', 'Recall@10', 'MRR', 'Hit@1', 'Section@1']));
    for (const s of q.systems) {
      const o = s.overall;
      lines.push(
        `| ${s.system} | ${f(o.ndcg10)} | ${f(o.recall5)} | ${f(o.recall10)} | ${f(o.mrr)} | ${f(o.hit1)} | ${f(o.section1)} |`,
      );
    }
    const styles = Object.keys(q.systems[0]?.byStyle ?? {});
    lines.push(
      '',
      'nDCG@10 by query style:',
      '',
      ...tableHead(['system', ...styles.map((s) => `${s} (${q.systems[0]!.byStyle[s]!.queries})`)]),
    );
    for (const s of q.systems)
      lines.push(`| ${s.system} | ${styles.map((st) => f(s.byStyle[st]!.ndcg10)).join(' | ')} |`);
    const shipped = q.systems.find((s) => s.system === 'hybrid (shipped)');
    if (shipped?.labels) {
      lines.push(
        '',
        'Relevance labels of the shipped system (share of results with the label that are judged relevant):',
        '',
        ...tableHead(['label', 'results', 'precision']),
      );
      for (const [label, v] of Object.entries(shipped.labels))
        lines.push(`| ${label} | ${v.count} | ${v.count === 0 ? '–' : f(v.precision, 2)} |`);
    }
    if (q.typos.length > 0) {
      lines.push(
        '',
        `The same queries with one typo each in their longest word (e.g. ${q.typoExamples.map((e) => `"${e}"`).join(', ')}):`,
        '',
      );
      lines.push(...tableHead(['system', 'nDCG@10', 'Hit@1', 'nDCG@10 without the typo']));
      for (const s of q.typos) {
        const clean =
          q.systems.find((c) => c.system === s.system) ?? q.systems.find((c) => c.system === 'hybrid (shipped)')!;
        lines.push(`| ${s.system} | ${f(s.overall.ndcg10)} | ${f(s.overall.hit1)} | ${f(clean.overall.ndcg10)} |`);
      }
    }
    lines.push('');
  }
  if (r.latency) {
    const l = r.latency;
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
  }
  if (r.indexing) {
    const i = r.indexing;
    lines.push('## Indexing (argocd)', '');
    lines.push(
      `Full build: ${i.documents} documents, ${i.sections} sections in ${i.fullBuildSeconds.toFixed(1)} s (${i.sectionsPerSecond.toFixed(0)} sections/s).`,
    );
    lines.push(
      `One-file edit (the largest page) reindexed in ${i.incrementalSeconds.toFixed(2)} s, embedding ${i.incrementalSectionsEmbedded} sections: ${i.fullOverIncremental.toFixed(1)}× faster than the full build, in the benchmark's process right after the builds before (their parser worker kept, their code compiled); ${i.incrementalNoWorkerSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.incrementalNoWorkerSeconds).toFixed(1)}× in that process with no worker kept (the file parsed on the calling thread instead of starting one). As a one-shot \`svc-docs index\` does it, in a new process running the compiled indexer: ${i.oneShotSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.oneShotSeconds).toFixed(1)}× (goal: ≥ 20×; the page is ${Math.round(i.editedPageBytes / 1000)} KB, the corpus's largest: parsing it cold is the largest single cost); a median-sized page (${(i.oneShotMedianPage.bytes / 1000).toFixed(1)} KB) edited the same way: ${i.oneShotMedianPage.seconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.oneShotMedianPage.seconds).toFixed(1)}×. None of these counts process start, imports or model load. \`serve --watch\` keeps its reindexer process between edits (src/reindex-process.ts): the first edit after the server starts took ${i.watch.firstSeconds.toFixed(2)} s from request to answer (the process started, everything counted), each further edit of the largest page ${i.watch.nextSeconds.toFixed(2)} s (median of three; the model kept, the check that its files are unchanged and the IPC counted): ${(i.fullBuildSeconds / i.watch.nextSeconds).toFixed(1)}× faster than the full build; each edit of the median-sized page ${i.watch.medianPageSeconds.toFixed(2)} s, ${(i.fullBuildSeconds / i.watch.medianPageSeconds).toFixed(1)}×; the kept process's RSS after them, held while it waits for the next edit: ${Math.round(i.watch.keptRssMB)} MB. No-change reindex: ${i.noChangeSeconds.toFixed(2)} s. What a user waits for, the compiled \`svc-docs index\` from spawn to exit (Node's start, imports, model load and exit counted; median of three): ${i.cli.largestPageSeconds.toFixed(2)} s after an edit of the largest page (${(i.cli.fullBuildSeconds / i.cli.largestPageSeconds).toFixed(1)}× faster than its full build from nothing, cold vector cache: ${i.cli.fullBuildSeconds.toFixed(2)} s), ${i.cli.medianPageSeconds.toFixed(2)} s after an edit of the median-sized page (${(i.cli.fullBuildSeconds / i.cli.medianPageSeconds).toFixed(1)}×), ${i.cli.noChangeSeconds.toFixed(2)} s with nothing changed.`,
      '',
    );
  }
  if (r.http) {
    const h = r.http;
    lines.push(`## End to end over HTTP (argocd, ${h.queries} queries), ms`, '');
    lines.push(
      `The compiled server (\`svc-docs serve\`) in its own process on 127.0.0.1 (ephemeral port), driven by the MCP SDK client (Client + StreamableHTTPClientTransport) from the benchmark process on the same ${r.machine.cpus}-core machine. Each session initializes, lists tools, makes one warm-up call, then its SearchDocs calls one after another; all sessions run at once. Latency is measured by the client, per call.`,
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
    lines.push(...memoryLines(h));
  }
  if (r.coldstart) {
    const c = r.coldstart;
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
      lines.push(
        `| … of which hashing the model files (checked against the index) | ${p.modelChecksumMs.toFixed(0)} |`,
      );
    lines.push(`| load the index (openEngine) | ${p.indexMs.toFixed(0)} |`);
    lines.push(`| … of which reading, verifying and parsing its files (readIndex) | ${p.indexReadMs.toFixed(0)} |`);
    lines.push(`| listen (HTTP) | ${p.listenMs.toFixed(0)} |`);
    lines.push(`| **ready, from process start** | **${p.readyMs.toFixed(0)}** |`);
    lines.push(`| first query after that (cold code paths) | ${p.firstQueryMs.toFixed(0)} |`);
    lines.push(
      `| not in the probe: what the CLI imports on top (commander, the command definitions) | ${p.cliImportsMs.toFixed(0)} |`,
      '',
    );
  }
  if (r.scale) {
    const sc = r.scale;
    lines.push('## Scale', '');
    lines.push(
      'The Argo CD docs as they are, then grown to each size with versioned copies (`argocd-versions/v001/…`, files renamed) whose prose is perturbed: 8 % of words repeated, 6 % followed by an inserted identifier-like token drawn from 300k (Zipf-like), so every copy has its own BM25 postings and the vocabulary keeps growing; headings, code and tables are unchanged. ' +
        `Each build is a real \`buildIndex\` (load, chunk, embed, BM25, HNSW, write) in its own process, except that a copy's section is not embedded: it gets its original's vector plus Gaussian noise (cosine ≈ 0.96 to the original), renormalised, so copies form tight clusters of near-duplicates, which is hard for HNSW. Sections the copies chunk differently are embedded for real. The real model embeds ${sc.embedSectionsPerSecond.toFixed(0)} sections/s here; the fourth column adds the time it would take to embed every section. ` +
        "Each index is then loaded by a fresh process as the server does (openEngine); it runs the argocd queries (hybrid, shipped settings) and compares HNSW with exact search on their vectors (recall@10: a neighbour as similar as the exact 10th counts as found, since copies whose text came out unchanged share their original's vector exactly).",
      '',
      'Building:',
      '',
      ...tableHead([
        'sections',
        'documents',
        'build (s)',
        '+ embedding every section (s, est.)',
        'build peak RSS (MB)',
        'sections embedded / copies given a vector',
        'index on disk (MB)',
      ]),
    );
    for (const p of sc.points) {
      const b = p.build;
      const allEmbedded = b.seconds + (b.reused + b.exact) / sc.embedSectionsPerSecond;
      lines.push(
        `| ${b.sections}${p.target === undefined ? ' (as is)' : ''} | ${b.documents} | ${b.seconds.toFixed(1)} | ${allEmbedded.toFixed(0)} | ${mb(b.peakRssMB)} | ${b.embedded} / ${b.reused} | ${(p.index.bytes / 2 ** 20).toFixed(1)} |`,
      );
    }
    lines.push(
      '',
      'Serving (a fresh process per size; latency of the whole search, ms, and the medians of its slowest stages):',
      '',
      ...tableHead([
        'sections',
        'index load (ms)',
        'p50',
        'p95',
        'lexical p50',
        'fuse p50',
        'vector p50',
        'HNSW recall@10',
        'recall@100',
        'RSS after queries (MB)',
        'RSS after full GC (MB)',
        'peak RSS (MB)',
      ]),
    );
    for (const p of sc.points) {
      const q = p.probe;
      lines.push(
        `| ${p.build.sections} | ${q.loadMs.toFixed(0)} | ${ms(q.total.p50)} | ${ms(q.total.p95)} | ${ms(q.stagesP50.lexicalMs)} | ${ms(q.stagesP50.fuseMs)} | ${ms(q.stagesP50.vectorMs)} | ${f(q.recall10)} | ${f(q.recallCandidates.recall)} | ${mb(q.memory.servingMB)} | ${mb(q.memory.afterGcMB)} | ${mb(q.memory.peakMB)} |`,
      );
    }
    if (sc.points.some((p) => p.probe.vectorSearch !== undefined)) {
      lines.push(
        '',
        "HNSW against exact search (the same query vectors; median time per search, ms; recall@10 at each efSearch, the index's own marked *):",
        '',
      );
      lines.push(
        ...tableHead(['sections', 'M', 'efConstruction', 'exact (ms)', 'efSearch: recall@10, ms, speed-up over exact']),
      );
      for (const p of sc.points) {
        const v = p.probe.vectorSearch;
        if (v === undefined) continue;
        const sweep = v.sweep
          .map(
            (w) =>
              `${w.efSearch}${w.efSearch === v.efSearch ? '*' : ''}: ${f(w.recall10)}, ${ms(w.ms)}, ${(v.exactMs / w.ms).toFixed(0)}×`,
          )
          .join('; ');
        lines.push(`| ${p.build.sections} | ${v.m} | ${v.efConstruction} | ${ms(v.exactMs)} | ${sweep} |`);
      }
    }
    const first = sc.points[0];
    if (first) {
      lines.push(
        '',
        `The probe process holds ${mb(first.probe.memory.baselineMB)} MB before loading anything and ${mb(first.probe.memory.modelMB)} MB with the model loaded; the rest is the index. ` +
          `Index files at the largest size: ${Object.entries(sc.points[sc.points.length - 1]!.index.files)
            .map(([name, bytes]) => `${name} ${(bytes / 2 ** 20).toFixed(1)} MB`)
            .join(', ')}.`,
      );
    }
    for (const n of sc.notRun) lines.push('', `Not run: ${compactCount(n.sections)} sections: ${n.reason}.`);
    lines.push('', `![Latency and memory against size](scale${r.mode === 'quick' ? '-quick' : ''}.svg)`, '');
  }
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
  if (r.scale && r.scale.points.length > 1) {
    const a = r.scale.points[0]!;
    const z = r.scale.points[r.scale.points.length - 1]!;
    ratios.push(
      `| p50 latency, ${compactCount(z.build.sections)} / ${compactCount(a.build.sections)} sections (${(z.build.sections / a.build.sections).toFixed(0)}× the data) | ${(z.probe.total.p50 / a.probe.total.p50).toFixed(2)}× |`,
    );
  }
  if (ratios.length > 0) lines.push('## Ratios', '', ...tableHead(['ratio', 'value']), ...ratios, '');
  const parts = Object.entries(r.seconds).filter(([k]) => k !== 'total');
  if (r.seconds.total !== undefined)
    lines.push(
      `Run time: ${(r.seconds.total / 60).toFixed(1)} min (${parts.map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', ')}).`,
      '',
    );
  const load = Object.entries(r.loadAverage);
  if (load.length > 0) {
    lines.push(
      `Load average (1 min) at the end of each part, on ${r.machine.cpus} cores: ${load.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}. Above ${r.machine.cpus}, other processes were competing for the CPU and every time above is inflated.`,
      '',
    );
  }
  return lines.join('\n') + '\n';
}
