import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { defaultCorpusDir } from '../../src/settings/defaults.js';
import { openEngine } from '../../src/search/engine.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { settledMemory } from './load-clients.js';
import { churn, fillCap, newRun, recoverCap, type Run, settle, storm, warmUp } from './load-phases.js';
import { describeLoad, type LoadOptions, type LoadReport, MB } from './load-report.js';
import { startLogged } from './load-server.js';

export { describeLoad, type LoadOptions, type LoadReport, type MemorySample } from './load-report.js';

/**
 * Load and soak: the real MCP client (SDK Client + StreamableHTTPClientTransport) against the
 * real HTTP server on a loopback port, in four phases.
 *
 * 1. churn: sessions opened, used (tools/list and searches) and closed with DELETE, by
 *    `concurrency` workers; every `abandonEvery`-th session is abandoned instead: the client
 *    goes away without DELETE, and a few "hung" clients keep their SSE stream open without
 *    ever reading it. The server's idle timeout must reclaim all of them.
 * 2. storm: `concurrency` sessions make `searches` SearchDocs calls between them.
 * 3. cap: a server with `cap.maxSessions` slots is filled, `cap.over` more clients try to
 *    initialize (each must get a clean 503 with Retry-After), the held sessions keep searching,
 *    then slots are freed (DELETE, and expiry of abandoned ones) and new sessions must open.
 * 4. settle: every session is gone; the heap after garbage collection is compared with the
 *    heap before phase 1.
 *
 * Every count is fixed and every wait is bounded by `deadlineMs`; nothing leaves 127.0.0.1.
 *
 *   npm run test:load                      # the long run (defaults below)
 *   npm run test:load -- --sessions=500 --searches=5000 --concurrency=32
 *
 * The quick form runs inside `npm test` (test/bench/load.test.ts).
 */

/** Known-good queries for the bundled corpus; each must return at least one result. */
export const BUNDLED_CORPUS_TERMS = [
  'webhook signature verification',
  'custom trigger payload schema',
  'access token refresh instanceId',
  'session not found 404',
  'index your own markdown',
  'install app redirect uri',
  'query wallets api',
];

/** What both servers' request logs say, added up; problems they logged become failures. */
function requestsOf(run: Run): LoadReport['requests'] {
  const byStatus: Record<string, number> = {};
  for (const { tally } of [run.main, run.capped]) {
    for (const [status, n] of Object.entries(tally.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
    for (const line of tally.problems) run.fail('server log', new Error(line));
  }
  return {
    searches: run.searches,
    searchFailures: run.searchFailures,
    byStatus,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    serverErrors: run.main.tally.serverErrors + run.capped.tally.serverErrors,
  };
}

/** The phases in order, with the heap settled before the first and after the last. */
async function phases(run: Run, peak: () => number): Promise<Omit<LoadReport, 'seconds'>> {
  const { options } = run;
  const progress = options.progress ?? (() => {});
  await warmUp(run);
  const before = await settledMemory();
  progress(`churn: ${options.sessions} sessions, ${options.concurrency} at a time`);
  const churned = await churn(run);
  progress(`storm: ${options.searches} searches over ${options.concurrency} sessions`);
  const stormCount = await storm(run);
  progress(`cap: ${options.cap.maxSessions} sessions held, ${options.cap.over} more refused`);
  const { held, ...atCap } = await fillCap(run);
  const heldCount = held.length;
  const recovered = await recoverCap(run, held);
  // The run's own references to closed clients go before the heap is measured.
  held.length = 0;
  progress('settle: waiting for abandoned sessions to expire');
  await settle(run);
  const after = await settledMemory();
  const expired = run.main.tally.expired + run.capped.tally.expired;
  return {
    sessions: { churned: options.sessions, storm: stormCount, closed: run.closed, ...churned, expired, peak: peak() },
    requests: requestsOf(run),
    cap: {
      maxSessions: options.cap.maxSessions,
      held: heldCount,
      attemptedOver: options.cap.over,
      ...atCap,
      ...recovered,
    },
    failures: run.failures,
    memory: { before, after, heapGrowthBytes: after.heapUsedBytes - before.heapUsedBytes },
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const started = performance.now();
  // Below the main server's cap whatever happens: every live and every abandoned session fits.
  const mainCap = options.sessions + options.concurrency + 16;
  const main = await startLogged(options.engine, mainCap, options.sessionIdleMs, false);
  const capped = await startLogged(options.engine, options.cap.maxSessions, options.sessionIdleMs, true);
  const run = newRun(options, options.terms ?? BUNDLED_CORPUS_TERMS, main, capped);
  let peak = 0;
  const peakTimer = setInterval(() => {
    peak = Math.max(peak, main.server.sessionCount());
  }, 20);
  try {
    const report = await phases(run, () => peak);
    return { ...report, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(peakTimer);
    for (const h of run.hung) h.destroy();
    await main.server.close();
    await capped.server.close();
  }
}

/** The long run's defaults (`npm run test:load`). */
export const LONG_RUN = {
  sessions: 2000,
  abandonEvery: 5,
  hungEvery: 10,
  searchesPerSession: 3,
  searches: 20_000,
  concurrency: 64,
  cap: { maxSessions: 200, over: 100 },
  // Longer than any queueing delay at 64 concurrent sessions on a small machine, so no session in use expires.
  sessionIdleMs: 15_000,
  deadlineMs: 20 * 60_000,
} as const;

/** Heap growth the long run tolerates before it fails (the quick test asserts its own bound). */
const LONG_RUN_HEAP_GROWTH_BYTES = 16 * MB;

async function main(): Promise<number> {
  const flag = (name: string) => {
    const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number, got "${value}"`);
    return n;
  };
  const root = mkdtempSync(join(tmpdir(), 'svc-docs-load-'));
  try {
    const indexDir = join(root, 'index');
    console.error(`building the bundled corpus index in ${indexDir}`);
    await buildIndex({ corpusDirs: [defaultCorpusDir()], outDir: indexDir, cacheDir: cacheDirOf(process.env) });
    const engine = await openEngine(indexDir, { cacheDir: cacheDirOf(process.env) });
    try {
      const report = await runLoad({
        engine,
        sessions: flag('sessions') ?? LONG_RUN.sessions,
        abandonEvery: flag('abandon-every') ?? LONG_RUN.abandonEvery,
        hungEvery: flag('hung-every') ?? LONG_RUN.hungEvery,
        searchesPerSession: flag('searches-per-session') ?? LONG_RUN.searchesPerSession,
        searches: flag('searches') ?? LONG_RUN.searches,
        concurrency: flag('concurrency') ?? LONG_RUN.concurrency,
        cap: { maxSessions: flag('cap') ?? LONG_RUN.cap.maxSessions, over: flag('over') ?? LONG_RUN.cap.over },
        sessionIdleMs: flag('idle-ms') ?? LONG_RUN.sessionIdleMs,
        deadlineMs: flag('deadline-ms') ?? LONG_RUN.deadlineMs,
        progress: (line) => console.error(line),
      });
      for (const line of describeLoad(report)) console.log(line);
      const ok =
        report.failures.length === 0 &&
        report.requests.serverErrors === 0 &&
        report.cap.refusedAtCap === report.cap.attemptedOver &&
        report.memory.heapGrowthBytes < LONG_RUN_HEAP_GROWTH_BYTES;
      console.log(
        ok ? 'load run passed' : `load run FAILED (heap growth allowed: ${LONG_RUN_HEAP_GROWTH_BYTES / MB} MB)`,
      );
      return ok ? 0 : 1;
    } finally {
      await engine.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && /bench[\\/]speed[\\/]load\.(ts|js)$/.test(process.argv[1])) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`load run failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
