import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { buildIndex } from '../indexer/build.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import type { Embedder } from '../src/embedding/types.js';
import { cacheDirOf } from '../src/settings/commands.js';
import { projectRoot } from '../src/project-root.js';
import { MILLION, type RunFlags, runFlags } from './run-flags.js';
import { measureAbuse } from './abuse/abuse.js';
import { measureSoak, renderSoakSummary } from './abuse/soak.js';
import { renderAbuseSummary } from './report/abuse-summary.js';
import { measureColdStart } from './speed/coldstart.js';
import { measureFirstHour, renderFirstHour } from './speed/first-hour.js';
import { measureHttp } from './speed/http.js';
import { measureIndexing } from './speed/indexing.js';
import { measureLatency } from './speed/latency.js';
import type { CorpusRuns } from './quality/loco-cache.js';
import { leftOutSummary } from './quality/loco-report.js';
import { qualityOf, searchEverySet } from './quality/quality-part.js';
import { labelledSets, type QuerySet } from './queries.js';
import { measureScale, scaleChart } from './scale/scale.js';
import type { BenchResults } from './report/results.js';
import { renderQualitySummary, renderSummary } from './report/summary.js';
import { writePageScreenshots } from './report/search-page-screenshot.js';

/**
 * `npm run bench` (full) and `npm run bench -- --quick` (CI): quality of every system on the
 * held-out halves of the labelled sets (the shipped engine against plain BM25 as the assistant
 * receives their answers, then every other system), query latency by stage, indexing speed, end-to-end latency over HTTP, cold
 * start, and behaviour at scale, all measured in this one run on this machine, screenshots of
 * the search page for the README, and the abuse and soak run. Select parts with
 * `--parts=quality,latency,indexing,http,coldstart,firsthour,scale,page,abuse` (all by default; `leftout`:
 * the quality part's left-out figures alone; abuse:
 * bench/abuse/abuse.ts, written to abuse.json and abuse.md; `soak`, not run by default: 30 minutes
 * of `serve --watch` under 16 clients, `--soak-minutes=<n>`, written to soak.json and soak.md) and the scale sizes
 * with `--scale-sizes=10000,100000`. Results: bench/results/results.json, summary.md, quality.md (the quality part alone) and
 * scale.svg (`-quick` suffixes in quick mode), or in `--out=<dir>`; `--search-threads=<n>` gives the
 * HTTP part's server that many search workers. The run fails only when a benchmark is broken
 * (an exception), never because the machine is slow.
 */

/** What every part of a run shares: the flags, where it works, the model, the labelled sets, the results so far. */
interface RunContext {
  flags: RunFlags;
  root: string;
  work: string;
  log: (line: string) => void;
  embedder: Embedder;
  sets: QuerySet[];
  argocd: QuerySet;
  argocdQueries: string[];
  /** The Argo CD index, built on first use. */
  argocdIndex: () => Promise<string>;
  results: BenchResults;
  /** Runs a part when selected, recording its seconds and the load average after it. */
  timed: (part: string, body: () => Promise<void>) => Promise<void>;
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  const root = projectRoot();
  const flags = runFlags(root);
  const work = join(cacheDirOf(process.env), 'bench');
  mkdirSync(flags.outDir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const log = (line: string) => console.error(`[bench] ${line}`);
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env), log });
  const sets = labelledSets(root);
  const results = newResults(flags.quick, embedder.modelId);
  const timed = async (part: string, body: () => Promise<void>) => {
    if (!flags.parts.has(part)) return;
    const started = performance.now();
    await body();
    results.seconds[part] = (performance.now() - started) / 1000;
    results.loadAverage[part] = loadavg()[0]!;
    log(
      `${part} done in ${results.seconds[part]!.toFixed(0)} s (load average ${results.loadAverage[part]!.toFixed(1)})`,
    );
  };
  const argocd = sets.find((s) => s.name === 'argocd')!;
  const argocdIndex = indexOnce(argocd.corpusDir, join(work, 'argocd-index'), embedder);
  const argocdQueries = argocd.queries.map((q) => q.query);
  const context = { flags, root, work, log, embedder, sets, argocd, argocdQueries, argocdIndex, results, timed };
  await timed('quality', async () => {
    const runs: CorpusRuns[] = [];
    for (const set of sets) {
      log(`quality: ${set.name} (${set.queries.length} queries)`);
      results.quality.push(await qualityOf(set, work, embedder, runs));
    }
    log(`quality: settings chosen leaving each of ${runs.length} corpora out`);
    results.leftOut = await leftOutSummary(runs, flags.quick, log);
  });
  if (!flags.parts.has('quality'))
    await timed('leftout', async () => {
      results.leftOut = await leftOutSummary(await searchEverySet(sets, work, embedder, log), flags.quick, log);
    });
  await speedParts(context);
  await scaleAndLaterParts(context);
  await embedder.dispose();
  results.seconds.total = (performance.now() - runStarted) / 1000;
  writeResults(flags, results, log);
}

function newResults(quick: boolean, model: string): BenchResults {
  return {
    mode: quick ? 'quick' : 'full',
    command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    startedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
    },
    model,
    quality: [],
    seconds: {},
    loadAverage: {},
  };
}

/** Latency by stage, indexing speed, HTTP end to end and cold start, all on the Argo CD index. */
async function speedParts(c: RunContext): Promise<void> {
  const { flags, results, log, embedder, argocdQueries, argocdIndex, root } = c;
  const { quick } = flags;
  await c.timed('latency', async () => {
    log('latency by stage');
    results.latency = await measureLatency(await argocdIndex(), embedder, argocdQueries, quick ? 2 : 10);
  });
  await c.timed('indexing', async () => {
    log('indexing speed');
    results.indexing = await measureIndexing(c.argocd.corpusDir, join(c.work, 'indexing'), embedder);
  });
  await c.timed('http', async () => {
    log('end to end over HTTP');
    const plan = quick
      ? [
          { sessions: 1, callsPerSession: 50 },
          { sessions: 8, callsPerSession: 10 },
          { sessions: 32, callsPerSession: 5 },
        ]
      : [
          { sessions: 1, callsPerSession: 2 * argocdQueries.length },
          { sessions: 8, callsPerSession: 50 },
          { sessions: 32, callsPerSession: 25 },
        ];
    const queriesFile = join(root, 'bench', 'queries', 'argocd.json');
    const index = await argocdIndex();
    results.http = await measureHttp(index, embedder, argocdQueries, queriesFile, plan, log, flags.serverOptions);
  });
  await c.timed('coldstart', async () => {
    log('cold start');
    results.coldstart = await measureColdStart(await argocdIndex(), argocdQueries[0]!, quick ? 2 : 5, log);
  });
  // Its own file, like the abuse part's: the bad first-hour inputs, each as users type it.
  await c.timed('firsthour', async () => {
    const firstHour = await measureFirstHour(root, log);
    const file = join(flags.outDir, `first-hour${quick ? '-quick' : ''}.md`);
    writeFileSync(file, renderFirstHour(firstHour, loadavg()[0]!));
    log(`first hour: wrote ${file}`);
  });
}

/** The scale part, the search page's screenshots, and the abuse and soak run. */
async function scaleAndLaterParts(c: RunContext): Promise<void> {
  const { flags, results, log, embedder, root, work } = c;
  const { quick, scaleSizes, copySizes } = flags;
  const suffix = quick ? '-quick' : '';
  await c.timed('scale', async () => {
    log(`scale: distinct ${['as is', ...scaleSizes].join(', ')}; near-copies ${copySizes.join(', ') || 'none'}`);
    results.scale = await measureScale({
      corpusRoot: c.argocd.corpusDir,
      baseIndexDir: await c.argocdIndex(),
      queriesFile: join(root, 'bench', 'queries', 'argocd.json'),
      corporaRoot: dirname(c.argocd.corpusDir),
      distinctQueriesFiles: c.sets
        .filter((s) => s.name !== 'svc')
        .map((s) => join(root, 'bench', 'queries', `${s.name}.json`)),
      work,
      distinctSizes: scaleSizes,
      sizes: copySizes,
      rounds: quick ? 1 : 2,
      embedder,
      log,
      skipped: quick || copySizes.length === 0 || copySizes.includes(MILLION) ? [] : [MILLION],
    });
  });
  await c.timed('page', async () => {
    const written = await writePageScreenshots(flags.outDir, suffix, embedder);
    log(written === undefined ? 'page: skipped, Chromium is not installed' : `page: wrote ${written.files.join(', ')}`);
  });
  await c.timed('abuse', async () => {
    log('abuse and soak');
    const abuse = await measureAbuse({
      argocdCorpus: c.argocd.corpusDir,
      work,
      embedder,
      quick,
      log,
      phases: flags.abusePhases,
    });
    writeFileSync(join(flags.outDir, `abuse${suffix}.json`), JSON.stringify(abuse, null, 2) + '\n');
    writeFileSync(join(flags.outDir, `abuse${suffix}.md`), renderAbuseSummary(abuse));
  });
  // Not among the default parts: it runs for half an hour (`--parts=soak`, `--soak-minutes=`).
  await c.timed('soak', async () => {
    log(`soak: ${flags.soakMinutes} minutes`);
    const soak = await measureSoak({
      argocdCorpus: c.argocd.corpusDir,
      work,
      embedder,
      minutes: flags.soakMinutes,
      log,
    });
    writeFileSync(join(flags.outDir, 'soak.json'), JSON.stringify(soak, null, 2) + '\n');
    writeFileSync(join(flags.outDir, 'soak.md'), renderSoakSummary(soak));
  });
}

/** results.json, summary.md and scale.svg; a scale-only run keeps its own beside the full run's (its chart replaces scale.svg). */
function writeResults(flags: RunFlags, results: BenchResults, log: (line: string) => void): void {
  const { outDir } = flags;
  const suffix = flags.quick ? '-quick' : '';
  const [resultsFile, summaryFile] = flags.scaleOnly
    ? ['scale-results.json', 'scale-summary.md']
    : [`results${suffix}.json`, `summary${suffix}.md`];
  writeFileSync(join(outDir, resultsFile), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(outDir, summaryFile), renderSummary(results));
  if (results.leftOut || results.quality.length > 0)
    writeFileSync(join(outDir, `quality${suffix}.md`), renderQualitySummary(results));
  if (results.scale) writeFileSync(join(outDir, `scale${suffix}.svg`), scaleChart(results.scale));
  log(
    `wrote ${outDir}/${resultsFile}, ${summaryFile}${results.leftOut || results.quality.length > 0 ? `, quality${suffix}.md` : ''}${results.scale ? ` and scale${suffix}.svg` : ''} in ${results.seconds.total!.toFixed(0)} s`,
  );
}

/** The index of `corpusDir`, built on first use and shared by the parts that need it. */
function indexOnce(corpusDir: string, indexDir: string, embedder: Embedder): () => Promise<string> {
  let built: Promise<string> | undefined;
  return () => (built ??= buildIndex({ corpusDirs: [corpusDir], outDir: indexDir, embedder }).then(() => indexDir));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
