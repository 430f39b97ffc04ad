import { type RunningServer, startHttpServer } from '../../src/serve/http-server.js';
import type { SearchEngine } from '../../src/search/types.js';

/**
 * What a server's request log says, tallied as lines arrive: the run keeps counts, not the
 * lines, so its own bookkeeping does not show up as heap growth.
 */
export interface LogTally {
  byStatus: Record<string, number>;
  /** Answers with status >= 500, 503 excepted when `allow503`. */
  serverErrors: number;
  expired: number;
  /** Error-level lines and unexpected 4xx answers (the first 20). */
  problems: string[];
  /** Sessions closed with DELETE (see the GET race below). */
  deleted: Set<string>;
}

export interface LoggedServer {
  server: RunningServer;
  tally: LogTally;
}

export async function startLogged(
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
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    engine: () => engine,
    maxSessions,
    sessionIdleMs,
    // Every load client connects from loopback: the per-client shares would count them as one.
    maxSessionsPerClient: maxSessions,
    maxRequestsPerClient: 100_000,
    log: onLine,
  });
  if (!server.url.startsWith('http://127.0.0.1:')) throw new Error(`expected a loopback server, got ${server.url}`);
  return { server, tally };
}
