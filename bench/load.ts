import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildIndex } from '../indexer/build.js';
import { defaultCorpusDir } from '../src/settings/defaults.js';
import { startHttpServer, type RunningServer } from '../src/mcp/http/http.js';
import { searchDocsOutputSchema } from '../src/mcp/render/render.js';
import { openEngine } from '../src/search/engine.js';
import type { SearchEngine } from '../src/search/types.js';
import { cacheDirOf } from '../src/settings/commands.js';

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
 * The quick form runs inside `npm test` (test/reliability/load.test.ts).
 */

export interface LoadOptions {
  engine: SearchEngine;
  /** Sessions of the churn phase. */
  sessions: number;
  /** Every n-th churn session is abandoned without DELETE. */
  abandonEvery: number;
  /** Of the abandoned sessions, every n-th is a hung client holding an unread SSE stream. */
  hungEvery: number;
  /** SearchDocs calls per churn session. */
  searchesPerSession: number;
  /** SearchDocs calls of the storm phase, all sessions together. */
  searches: number;
  /** Sessions working at once (churn workers, storm sessions). */
  concurrency: number;
  cap: { maxSessions: number; over: number };
  /** Idle timeout of both servers: abandoned sessions are reclaimed after it. */
  sessionIdleMs: number;
  /** The whole run fails if it takes longer than this. */
  deadlineMs: number;
  /** Search terms, used in turn; each must find at least one result in the engine's index. */
  terms?: readonly string[];
  /** Progress lines (phase starts), for the command line. */
  progress?: (line: string) => void;
}

export interface MemorySample {
  heapUsedBytes: number;
  rssBytes: number;
}

export interface LoadReport {
  sessions: {
    /** Sessions the churn phase opened, the storm phase's, then how many were closed with DELETE, and abandoned (of them, hung). */
    churned: number;
    storm: number;
    closed: number;
    abandoned: number;
    hung: number;
    /** Sessions the servers closed for idleness (from their logs). */
    expired: number;
    /** Most sessions open at once on the main server. */
    peak: number;
  };
  requests: {
    /** SearchDocs calls made, and how many failed (exception, isError, no results). */
    searches: number;
    searchFailures: number;
    /** HTTP requests the servers answered, by status (from their request logs). */
    byStatus: Record<string, number>;
    total: number;
    /** Answers with status ≥ 500 other than the cap phase's 503s. */
    serverErrors: number;
  };
  cap: {
    maxSessions: number;
    /** Sessions held at the cap, and the initializes beyond it. */
    held: number;
    attemptedOver: number;
    /** Of those, answered 503 with a Retry-After and a JSON-RPC error body. */
    refused503: number;
    /** Answers beyond the cap that were anything else (must be 0). */
    unexpected: string[];
    /** Searches the held sessions made while the cap was hit, and failures among them. */
    searchesAtCap: number;
    /** New sessions opened after slots were freed by DELETE, and after abandoned ones expired. */
    reopenedAfterDelete: number;
    reopenedAfterExpiry: number;
  };
  /** Every failure below the cap, described (must be empty). */
  failures: string[];
  memory: { before: MemorySample; after: MemorySample; heapGrowthBytes: number };
  seconds: number;
}

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

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function settledMemory(): Promise<MemorySample> {
  for (let i = 0; i < 4; i++) {
    gc();
    // Let finalizers and closed sockets' callbacks run between collections.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsedBytes: heapUsed, rssBytes: rss };
}

interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

async function openSession(url: string): Promise<Session> {
  const client = new Client({ name: 'svc-docs-load', version: '1.0.0' });
  // No SSE reconnection: a stream the server ends (session closed) must stay ended.
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  await client.connect(transport);
  return { client, transport };
}

async function search(session: Session, term: string): Promise<void> {
  const result = (await session.client.callTool({
    name: 'SearchDocs',
    arguments: { searchTerm: term },
  })) as CallToolResult;
  if (result.isError)
    throw new Error(`SearchDocs "${term}" answered an error: ${JSON.stringify(result.content).slice(0, 200)}`);
  const results = searchDocsOutputSchema.parse(result.structuredContent).results;
  if (results.length === 0) throw new Error(`SearchDocs "${term}" found nothing`);
}

/** A client that hangs: it opened a session and its SSE stream, then stopped reading and never closes. */
interface HungClient {
  /** Resolves when the server ends the stream (after the session expired). */
  ended: Promise<void>;
  destroy(): void;
}

function hangOnStream(url: string, sessionId: string): Promise<HungClient> {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const req: ClientRequest = request(url, { method: 'GET', agent: false, headers }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET stream answered ${res.statusCode}`));
        res.destroy();
        return;
      }
      // The application never reads the stream: its events pile up unread (test/reliability/
      // slow-clients.test.ts also stops reading at the TCP level). The socket still notices
      // when the server ends the stream.
      res.pause();
      const ended = new Promise<void>((done) => {
        res.socket.once('end', () => done());
        res.socket.once('close', () => done());
      });
      resolve({ ended, destroy: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

async function rawInitialize(
  url: string,
): Promise<{ status: number; retryAfter: string | null; body: string; sessionId: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'svc-docs-load-raw', version: '1.0.0' },
      },
    }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: await res.text(),
    sessionId: res.headers.get('mcp-session-id'),
  };
}

async function rawSession(url: string): Promise<string> {
  const init = await rawInitialize(url);
  if (init.status !== 200 || init.sessionId === null) throw new Error(`initialize answered ${init.status}`);
  const ack = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': init.sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.text();
  if (ack.status !== 202) throw new Error(`initialized answered ${ack.status}`);
  return init.sessionId;
}

/** Runs `count` jobs on `workers` workers; job i gets its index. */
async function pool(count: number, workers: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

/**
 * What a server's request log says, tallied as lines arrive: the run keeps counts, not the
 * lines, so its own bookkeeping does not show up as heap growth.
 */
interface LogTally {
  byStatus: Record<string, number>;
  /** Answers with status >= 500, 503 excepted when `allow503`. */
  serverErrors: number;
  expired: number;
  /** Error-level lines and unexpected 4xx answers (the first 20). */
  problems: string[];
  /** Sessions closed with DELETE (see the GET race below). */
  deleted: Set<string>;
}

interface LoggedServer {
  server: RunningServer;
  tally: LogTally;
}

async function startLogged(
  engine: SearchEngine,
  maxSessions: number,
  sessionIdleMs: number,
  allow503: boolean,
): Promise<LoggedServer> {
  const tally: LogTally = { byStatus: {}, serverErrors: 0, expired: 0, problems: [], deleted: new Set() };
  const problem = (line: string) => {
    if (tally.problems.length < 20) tally.problems.push(line);
  };
  const onLine = (line: string) => {
    const e = JSON.parse(line) as {
      level?: string;
      event?: string;
      method?: string;
      status?: number;
      session?: string;
    };
    if (e.event === 'session-expired') tally.expired++;
    if (e.level === 'error') problem(line);
    if (typeof e.status !== 'number') return;
    tally.byStatus[e.status] = (tally.byStatus[e.status] ?? 0) + 1;
    if (e.method === 'DELETE' && e.status === 200 && e.session !== undefined) tally.deleted.add(e.session);
    if (e.status >= 500 && !(allow503 && e.status === 503)) tally.serverErrors++;
    // Below the cap every answer is a success; a 4xx means a client was refused or lost its
    // session. One race is the client's own: the SDK starts its SSE stream (GET) without
    // waiting, so a session closed at once may see that GET arrive after its DELETE (404).
    const clientRace =
      e.method === 'GET' && e.status === 404 && e.session !== undefined && tally.deleted.has(e.session);
    if (!allow503 && e.status >= 400 && !clientRace) problem(line);
  };
  // Structured output on: each search is checked through the structured copy (off by default since SDK v2).
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    engine: () => engine,
    maxSessions,
    sessionIdleMs,
    // Every load client connects from loopback: the per-client shares would count them as one.
    maxSessionsPerClient: maxSessions,
    maxRequestsPerClient: 100_000,
    structuredOutput: true,
    log: onLine,
  });
  if (!server.url.startsWith('http://127.0.0.1:')) throw new Error(`expected a loopback server, got ${server.url}`);
  return { server, tally };
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const started = performance.now();
  const deadline = Date.now() + options.deadlineMs;
  const progress = options.progress ?? (() => {});
  const checkDeadline = (what: string) => {
    if (Date.now() > deadline) throw new Error(`load run exceeded its ${options.deadlineMs} ms bound during ${what}`);
  };
  /** Polls `done` every 50 ms until it holds, failing at the deadline. */
  const waitUntil = async (what: string, done: () => boolean) => {
    while (!done()) {
      checkDeadline(`waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const TERMS = options.terms ?? BUNDLED_CORPUS_TERMS;
  const failures: string[] = [];
  const fail = (what: string, error: unknown) => {
    failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  };
  let searches = 0;
  let searchFailures = 0;
  const counted = async (session: Session, term: string, what: string) => {
    searches++;
    try {
      await search(session, term);
    } catch (error) {
      searchFailures++;
      fail(what, error);
    }
  };

  // Below the main server's cap whatever happens: every live and every abandoned session fits.
  const mainCap = options.sessions + options.concurrency + 16;
  const main = await startLogged(options.engine, mainCap, options.sessionIdleMs, false);
  const capped = await startLogged(options.engine, options.cap.maxSessions, options.sessionIdleMs, true);
  let peak = 0;
  const peakTimer = setInterval(() => {
    peak = Math.max(peak, main.server.sessionCount());
  }, 20);
  const hung: HungClient[] = [];
  try {
    // Warm-up of both servers: code paths compiled and caches filled before the baseline is taken.
    await pool(options.concurrency, options.concurrency, async (i) => {
      const s = await openSession((i % 2 === 0 ? main : capped).server.url);
      await s.client.listTools();
      await search(s, TERMS[i % TERMS.length]!);
      await s.transport.terminateSession();
      await s.client.close();
    });
    await waitUntil(
      'warm-up sessions to close',
      () => main.server.sessionCount() === 0 && capped.server.sessionCount() === 0,
    );
    const before = await settledMemory();

    progress(`churn: ${options.sessions} sessions, ${options.concurrency} at a time`);
    let closed = 0;
    let abandoned = 0;
    let hungCount = 0;
    await pool(options.sessions, options.concurrency, async (i) => {
      checkDeadline('churn');
      const abandon = (i + 1) % options.abandonEvery === 0;
      const hang = abandon && ((i + 1) / options.abandonEvery) % options.hungEvery === 0;
      if (hang) {
        abandoned++;
        hungCount++;
        try {
          const id = await rawSession(main.server.url);
          hung.push(await hangOnStream(main.server.url, id));
        } catch (error) {
          fail(`hung session ${i}`, error);
        }
        return;
      }
      let session: Session | undefined;
      try {
        session = await openSession(main.server.url);
        await session.client.listTools();
        for (let k = 0; k < options.searchesPerSession; k++)
          await counted(session, TERMS[(i + k) % TERMS.length]!, `churn session ${i} search ${k}`);
        if (abandon) {
          abandoned++;
        } else {
          await session.transport.terminateSession();
          closed++;
        }
      } catch (error) {
        fail(`churn session ${i}`, error);
      } finally {
        // Closing the client drops its connections; without terminateSession no DELETE is sent.
        await session?.client.close().catch(() => undefined);
      }
    });

    progress(`storm: ${options.searches} searches over ${options.concurrency} sessions`);
    const storm: Session[] = [];
    await pool(options.concurrency, options.concurrency, async (i) => {
      try {
        storm.push(await openSession(main.server.url));
      } catch (error) {
        fail(`storm session ${i}`, error);
      }
    });
    let issued = 0;
    await Promise.all(
      storm.map(async (session, w) => {
        while (issued < options.searches) {
          checkDeadline('storm');
          const n = issued++;
          await counted(session, TERMS[(n + w) % TERMS.length]!, `storm search ${n}`);
        }
      }),
    );
    for (const session of storm) {
      try {
        await session.transport.terminateSession();
        closed++;
      } catch (error) {
        fail('storm DELETE', error);
      }
      await session.client.close().catch(() => undefined);
    }

    progress(`cap: ${options.cap.maxSessions} sessions held, ${options.cap.over} more refused`);
    const held: Session[] = [];
    await pool(options.cap.maxSessions, options.concurrency, async (i) => {
      try {
        held.push(await openSession(capped.server.url));
      } catch (error) {
        fail(`cap session ${i} (below the cap)`, error);
      }
    });
    const unexpected: string[] = [];
    let refused503 = 0;
    let searchesAtCap = 0;
    const [overAnswers] = await Promise.all([
      Promise.all(
        Array.from({ length: options.cap.over }, () => rawInitialize(capped.server.url).catch((error: Error) => error)),
      ),
      // The held sessions keep working while others are turned away.
      Promise.all(
        held.map(async (session, i) => {
          searchesAtCap++;
          await counted(session, TERMS[i % TERMS.length]!, `search at the cap ${i}`);
        }),
      ),
    ]);
    for (const answer of overAnswers) {
      if (answer instanceof Error) {
        unexpected.push(`exception: ${answer.message}`);
        continue;
      }
      const clean =
        answer.status === 503 &&
        Number(answer.retryAfter) >= 1 &&
        answer.sessionId === null &&
        /"code":-32000,"message":"Service Unavailable: all \d+ sessions are in use/.test(answer.body);
      if (clean) refused503++;
      else unexpected.push(`${answer.status} retry-after=${answer.retryAfter} ${answer.body.slice(0, 200)}`);
    }
    const health = await fetch(capped.server.url.replace(/\/docs$/, '/healthz'));
    await health.text();
    if (health.status !== 200) fail('healthz at the cap', new Error(`answered ${health.status}`));

    // Recovery 1: half the held sessions leave properly; as many new ones must get in.
    const leaving = held.splice(0, Math.ceil(held.length / 2));
    for (const session of leaving) {
      await session.transport.terminateSession().catch((error: unknown) => fail('DELETE at the cap', error));
      await session.client.close().catch(() => undefined);
    }
    let reopenedAfterDelete = 0;
    const reopened: Session[] = [];
    await pool(leaving.length, options.concurrency, async (i) => {
      try {
        const s = await openSession(capped.server.url);
        reopened.push(s);
        await counted(s, TERMS[i % TERMS.length]!, `search after recovery ${i}`);
        reopenedAfterDelete++;
      } catch (error) {
        fail(`reopen after DELETE ${i}`, error);
      }
    });
    // Recovery 2: everyone else just goes away; once the idle timeout passes, the slots are free.
    for (const session of [...held, ...reopened]) await session.client.close().catch(() => undefined);
    await waitUntil('abandoned sessions at the cap to expire', () => capped.server.sessionCount() === 0);
    let reopenedAfterExpiry = 0;
    await pool(options.cap.maxSessions, options.concurrency, async (i) => {
      try {
        const s = await openSession(capped.server.url);
        await s.transport.terminateSession();
        await s.client.close();
        reopenedAfterExpiry++;
      } catch (error) {
        fail(`reopen after expiry ${i}`, error);
      }
    });

    progress('settle: waiting for abandoned sessions to expire');
    await waitUntil(
      'abandoned sessions to expire',
      () => main.server.sessionCount() === 0 && capped.server.sessionCount() === 0,
    );
    // Hung clients: the server ended their streams when their sessions expired.
    const streamsEnded = Promise.all(hung.map((h) => h.ended));
    let allEnded = false;
    void streamsEnded.then(() => {
      allEnded = true;
    });
    await waitUntil('the server to end the hung clients\u2019 streams', () => allEnded);
    for (const h of hung) h.destroy();
    hung.length = 0;
    // The run's own references to closed clients go before the heap is measured.
    const stormCount = storm.length;
    const heldCount = leaving.length + held.length;
    for (const list of [storm, held, leaving, reopened]) list.length = 0;
    for (const { tally } of [main, capped]) tally.deleted.clear();
    const after = await settledMemory();

    const byStatus: Record<string, number> = {};
    for (const { tally } of [main, capped]) {
      for (const [status, n] of Object.entries(tally.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
      for (const line of tally.problems) fail('server log', new Error(line));
    }
    return {
      sessions: {
        churned: options.sessions,
        storm: stormCount,
        closed,
        abandoned,
        hung: hungCount,
        expired: main.tally.expired + capped.tally.expired,
        peak,
      },
      requests: {
        searches,
        searchFailures,
        byStatus,
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        serverErrors: main.tally.serverErrors + capped.tally.serverErrors,
      },
      cap: {
        maxSessions: options.cap.maxSessions,
        held: heldCount,
        attemptedOver: options.cap.over,
        refused503,
        unexpected,
        searchesAtCap,
        reopenedAfterDelete,
        reopenedAfterExpiry,
      },
      failures,
      memory: { before, after, heapGrowthBytes: after.heapUsedBytes - before.heapUsedBytes },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    clearInterval(peakTimer);
    for (const h of hung) h.destroy();
    await main.server.close();
    await capped.server.close();
  }
}

const MB = 1024 * 1024;

export function describeLoad(report: LoadReport): string[] {
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const { sessions: s, requests: r, cap: c, memory: m } = report;
  return [
    `sessions: ${s.churned} opened, used and closed or abandoned, ${s.storm} searching in the storm; ${s.closed} closed with DELETE, ${s.abandoned} abandoned without DELETE (${s.hung} of them hung on an unread SSE stream); ${s.expired} expired by the servers (cap phase included); peak ${s.peak} open at once`,
    `requests: ${r.total} HTTP requests answered (${Object.entries(r.byStatus)
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ')}); ${r.searches} SearchDocs calls, ${r.searchFailures} failed; ${r.serverErrors} server errors`,
    `cap: ${c.held} sessions held at a cap of ${c.maxSessions}; ${c.refused503}/${c.attemptedOver} initializes beyond it answered 503 + Retry-After, ${c.unexpected.length} otherwise; ${c.searchesAtCap} searches at the cap; ${c.reopenedAfterDelete} sessions reopened after DELETE, ${c.reopenedAfterExpiry} after expiry`,
    `memory: heap ${mb(m.before.heapUsedBytes)} before, ${mb(m.after.heapUsedBytes)} after (${m.heapGrowthBytes >= 0 ? '+' : ''}${mb(m.heapGrowthBytes)}); rss ${mb(m.before.rssBytes)} before, ${mb(m.after.rssBytes)} after`,
    `failures: ${report.failures.length}${report.failures.length > 0 ? `\n  ${report.failures.slice(0, 20).join('\n  ')}` : ''}`,
    `time: ${report.seconds.toFixed(1)} s`,
  ];
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
        report.cap.refused503 === report.cap.attemptedOver &&
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

if (process.argv[1] !== undefined && /bench[\\/]load\.(ts|js)$/.test(process.argv[1])) {
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
