import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Embedder } from '../../src/embedding/types.js';
import { pageUri } from '../../src/mcp/tools/page-uri.js';
import { getText, healthProbe, latencyOf, type Latency, serverLoopDelayMaxMs } from './abuse-clients.js';
import { abuseIndex, BIG_PAGE, pointAt, type AbuseIndex } from './abuse-index.js';
import {
  abandonedSessions,
  batchesOfEveryMethod,
  batchFlood,
  fairness,
  lightTraffic,
  pageParts,
  type PhaseContext,
  redactionPaths,
  unreadClients,
} from './abuse-phases.js';
import { homeAfterSearches, hostilePageViews, listenStreams, sessionsHeld } from './abuse-page-phases.js';
import { memoryOf, spawnServer } from '../lib/child-process.js';

/**
 * The abuse and soak run (issue 35): the compiled server with its default limits, on the Argo CD
 * index plus a 1 MB page, while its index is reloaded every 1.5 s, first serves light searches in
 * both eras until it has reloaded 100 times (10 in a quick run), then goes through phases of what an
 * attacker sends: batches of page reads, a batch of every method, answers never read, abandoned
 * sessions, 16 KB paths of `eyJ`, one client's share of heavy searches beside a light client.
 * Meanwhile /healthz is timed every 50 ms and the server's RSS read every second. Reports RSS over
 * time, /healthz per phase, what each phase saw, and RSS after the first reload and the last.
 */

const RELOAD_EVERY_MS = 1500;

export interface AbusePhase {
  name: string;
  seconds: number;
  healthz: Latency;
  /**
   * Event-loop delay at most, ms: the server's (its /metrics) and this benchmark's main thread's
   * (its clients; the /healthz probe has a thread of its own). A /healthz max far above the
   * server's waited elsewhere (sockets, the machine's load).
   */
  eventLoopMaxMs: { server?: number; bench: number };
  rssStartMB: number;
  rssEndMB: number;
  seen: Record<string, unknown>;
}

export interface AbuseReport {
  quick: boolean;
  /** The server's settings this run changed from the defaults. */
  settings: Record<string, string>;
  rss: { second: number; mb: number; phase: string }[];
  phases: AbusePhase[];
  reloads: { count: number; missed: number; afterFirstMB: number; afterTargetMB: number; targetOverFirst: number };
}

/** The builtAt /readyz reports: which build the server has loaded. */
export async function readyBuiltAt(base: string): Promise<string | undefined> {
  const text = await getText(`${base}/readyz`);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as { index?: { builtAt?: string } }).index?.builtAt;
  } catch {
    return undefined;
  }
}

/**
 * Flips CURRENT between the two builds every RELOAD_EVERY_MS and waits for /readyz to show each;
 * notes RSS after the first reload and after the `target`th.
 */
function reloader(index: AbuseIndex, base: string, pid: number, target: number) {
  const state = { count: 0, missed: 0, afterFirstMB: 0, afterTargetMB: 0, stop: false };
  const done = (async () => {
    while (!state.stop) {
      await new Promise((resolve) => setTimeout(resolve, RELOAD_EVERY_MS));
      const next = index.builds[(state.count + state.missed + 1) % 2]!;
      pointAt(index.dir, next.name);
      const deadline = performance.now() + 10_000;
      while ((await readyBuiltAt(base)) !== next.builtAt && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      if (performance.now() >= deadline) state.missed++;
      else if (++state.count === 1) state.afterFirstMB = memoryOf(pid).rssMB;
      else if (state.count === target) state.afterTargetMB = memoryOf(pid).rssMB;
    }
  })();
  return { state, stop: () => ((state.stop = true), done) };
}

interface AbuseOptions {
  argocdCorpus: string;
  work: string;
  embedder: Embedder;
  quick: boolean;
  log: (line: string) => void;
  /** Runs only the phases whose names contain one of these (`--abuse-phases=`); all by default. */
  phases?: string[];
}

export async function measureAbuse(options: AbuseOptions): Promise<AbuseReport> {
  const { quick, log } = options;
  const index = await abuseIndex(options.argocdCorpus, options.work, options.embedder);
  const settings = {
    SVC_DOCS_TRUSTED_PROXIES: 'loopback',
    SVC_DOCS_SESSION_IDLE_SECONDS: quick ? '5' : '20',
    SVC_DOCS_WRITE_TIMEOUT_SECONDS: '5',
    // The defaults, not the benchmarks' one-address shares: each phase's clients have their own addresses.
    SVC_DOCS_MAX_SESSIONS_PER_CLIENT: '',
    SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '',
  };
  const server = await spawnServer(index.dir, log, { env: settings });
  const base = server.url.replace(/\/docs$/, '');
  const report: AbuseReport = {
    quick,
    settings,
    rss: [],
    phases: [],
    reloads: { count: 0, missed: 0, afterFirstMB: 0, afterTargetMB: 0, targetOverFirst: 0 },
  };
  const started = performance.now();
  let phase = 'start';
  const sampler = setInterval(() => {
    const second = Math.round((performance.now() - started) / 1000);
    report.rss.push({ second, mb: Math.round(memoryOf(server.pid).rssMB), phase });
  }, 1000);
  const target = quick ? 10 : 100;
  const reloads = reloader(index, base, server.pid, target);
  try {
    await runPhases(
      options,
      server,
      report,
      (name) => (phase = name),
      () => reloads.state.count >= target || reloads.state.missed >= 10,
    );
  } finally {
    await reloads.stop();
    clearInterval(sampler);
    await server.stop();
  }
  const { count, missed, afterFirstMB, afterTargetMB } = reloads.state;
  const round = (x: number) => Math.round(x * 10) / 10;
  report.reloads = {
    count,
    missed,
    afterFirstMB: round(afterFirstMB),
    afterTargetMB: round(afterTargetMB),
    targetOverFirst: Math.round((afterTargetMB / afterFirstMB) * 100) / 100,
  };
  return report;
}

/** Runs one phase's `body` while /healthz is probed and both event loops watched: what the phase's row shows. */
async function measured(
  base: string,
  pid: number,
  body: () => Promise<Record<string, unknown>>,
): Promise<Omit<AbusePhase, 'name'>> {
  await serverLoopDelayMaxMs(base);
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  benchLoop.enable();
  const probe = healthProbe(base);
  const rssStartMB = memoryOf(pid).rssMB;
  const t = performance.now();
  const seen = await body();
  const healthz = latencyOf(await probe.stop());
  benchLoop.disable();
  const eventLoopMaxMs = { server: await serverLoopDelayMaxMs(base), bench: Math.round(benchLoop.max / 1e5) / 10 };
  const seconds = Math.round((performance.now() - t) / 100) / 10;
  return { seconds, healthz, eventLoopMaxMs, rssStartMB, rssEndMB: memoryOf(pid).rssMB, seen };
}

async function runPhases(
  options: AbuseOptions,
  server: { url: string; pid: number },
  report: AbuseReport,
  enter: (name: string) => void,
  reloaded: () => boolean,
): Promise<void> {
  const { quick, log } = options;
  const base = server.url.replace(/\/docs$/, '');
  const ctx = (seconds: number): PhaseContext => ({
    url: server.url,
    port: Number(new URL(server.url).port),
    bigPage: pageUri(BIG_PAGE.kb, BIG_PAGE.path),
    seconds: quick ? Math.max(2, seconds / 5) : seconds,
    scale: quick ? 0.25 : 1,
  });
  const timed = async (name: string, seconds: number, body: (c: PhaseContext) => Promise<Record<string, unknown>>) => {
    if (options.phases && !options.phases.some((part) => name.includes(part))) return;
    enter(name);
    log(`abuse: ${name}`);
    report.phases.push({ name, ...(await measured(base, server.pid, () => body(ctx(seconds)))) });
  };
  const pause = (seconds: number) =>
    new Promise((resolve) => setTimeout(resolve, (quick ? seconds / 4 : seconds) * 1000));
  // First the soak: reloads with a light search in each era between them, until the reload target.
  await timed('reloads, light searches', 0, (c) => lightTraffic(c, reloaded));
  await timed('batches of 100 page reads, 4 at once', 15, batchFlood);
  await timed('page parts, 4 readers', 10, pageParts);
  await timed('batches of every method', 0, async (c) => ({ rows: await batchesOfEveryMethod(c) }));
  await timed('unread answers', 0, async (c) => {
    const clients = unreadClients(c);
    // Past the server's write timeout (5 s here) and long enough to see what they hold.
    await pause(8);
    const held = memoryOf(server.pid).rssMB;
    clients.destroy();
    return { clients: 200 * c.scale, rssWhileHeldMB: Math.round(held) };
  });
  await timed('abandoned sessions', 0, abandonedSessions);
  await timed('eyJ paths', 10, redactionPaths);
  await timed('fair shares', 20, (c) => fairness(c, 8));
  await timed('three home views after 5,000 searches', 0, homeAfterSearches);
  await timed('16 views of a hostile page', 0, hostilePageViews);
  await timed('listen streams from one address', 0, listenStreams);
  await timed('ten addresses hold the sessions, then a new client', 0, sessionsHeld);
  // The abandoned sessions expire after the idle time (20 s here): memory is measured after that.
  await timed('after the idle time', 25, async () => (await pause(25), {}));
}
