import {
  type HungClient,
  hangOnStream,
  openSession,
  pool,
  rawInitialize,
  rawSession,
  search,
  type Session,
} from './load-clients.js';
import type { LoadOptions, LoadReport } from './load-report.js';
import type { LoggedServer } from './load-server.js';

/**
 * The phases of a load run (bench/speed/load.ts), each a function of the run's shared state: its two
 * servers, the clients left hanging, the failures and the search counts, and its deadline.
 */

export interface Run {
  options: LoadOptions;
  terms: readonly string[];
  /** The server below its cap whatever happens, and the one whose cap is hit. */
  main: LoggedServer;
  capped: LoggedServer;
  hung: HungClient[];
  failures: string[];
  searches: number;
  searchFailures: number;
  /** Sessions closed with DELETE. */
  closed: number;
  checkDeadline(what: string): void;
  /** Polls `done` every 50 ms until it holds, failing at the deadline. */
  waitUntil(what: string, done: () => boolean): Promise<void>;
  fail(what: string, error: unknown): void;
  /** A SearchDocs call counted in the report; a failure is recorded, not thrown. */
  counted(session: Session, term: string, what: string): Promise<void>;
}

export function newRun(options: LoadOptions, terms: readonly string[], main: LoggedServer, capped: LoggedServer): Run {
  const deadline = Date.now() + options.deadlineMs;
  const run: Run = {
    options,
    terms,
    main,
    capped,
    hung: [],
    failures: [],
    searches: 0,
    searchFailures: 0,
    closed: 0,
    checkDeadline(what) {
      if (Date.now() > deadline) throw new Error(`load run exceeded its ${options.deadlineMs} ms bound during ${what}`);
    },
    async waitUntil(what, done) {
      while (!done()) {
        run.checkDeadline(`waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    fail(what, error) {
      run.failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    },
    async counted(session, term, what) {
      run.searches++;
      try {
        await search(session, term);
      } catch (error) {
        run.searchFailures++;
        run.fail(what, error);
      }
    },
  };
  return run;
}

/** Warm-up of both servers: code paths compiled and caches filled before the baseline is taken. */
export async function warmUp(run: Run): Promise<void> {
  const { options, terms, main, capped } = run;
  await pool(options.concurrency, options.concurrency, async (i) => {
    const s = await openSession((i % 2 === 0 ? main : capped).server.url);
    await s.client.listTools();
    await search(s, terms[i % terms.length]!);
    await s.transport.terminateSession();
    await s.client.close();
  });
  await run.waitUntil(
    'warm-up sessions to close',
    () => main.server.sessionCount() === 0 && capped.server.sessionCount() === 0,
  );
}

/** A session that goes away without DELETE and holds its SSE stream open, never reading it. */
async function hangOne(run: Run, i: number): Promise<void> {
  try {
    const id = await rawSession(run.main.server.url);
    run.hung.push(await hangOnStream(run.main.server.url, id));
  } catch (error) {
    run.fail(`hung session ${i}`, error);
  }
}

/** Phase 1: sessions opened, used and closed, every `abandonEvery`-th abandoned (some hung). */
export async function churn(run: Run): Promise<{ abandoned: number; hung: number }> {
  const { options, terms } = run;
  let abandoned = 0;
  let hung = 0;
  await pool(options.sessions, options.concurrency, async (i) => {
    run.checkDeadline('churn');
    const abandon = (i + 1) % options.abandonEvery === 0;
    if (abandon) abandoned++;
    if (abandon && ((i + 1) / options.abandonEvery) % options.hungEvery === 0) {
      hung++;
      return hangOne(run, i);
    }
    let session: Session | undefined;
    try {
      session = await openSession(run.main.server.url);
      await session.client.listTools();
      for (let k = 0; k < options.searchesPerSession; k++)
        await run.counted(session, terms[(i + k) % terms.length]!, `churn session ${i} search ${k}`);
      if (!abandon) {
        await session.transport.terminateSession();
        run.closed++;
      }
    } catch (error) {
      run.fail(`churn session ${i}`, error);
    } finally {
      // Closing the client drops its connections; without terminateSession no DELETE is sent.
      await session?.client.close().catch(() => undefined);
    }
  });
  return { abandoned, hung };
}

/** Opens `count` sessions on `url`, `concurrency` at a time; a failure is recorded as `what i`. */
async function openMany(run: Run, url: string, count: number, what: string): Promise<Session[]> {
  const sessions: Session[] = [];
  await pool(count, run.options.concurrency, async (i) => {
    try {
      sessions.push(await openSession(url));
    } catch (error) {
      run.fail(`${what} ${i}`, error);
    }
  });
  return sessions;
}

/** Ends each session with DELETE (counted as closed) and closes its client. */
async function closeAll(run: Run, sessions: readonly Session[], what: string): Promise<void> {
  for (const session of sessions) {
    try {
      await session.transport.terminateSession();
      run.closed++;
    } catch (error) {
      run.fail(what, error);
    }
    await session.client.close().catch(() => undefined);
  }
}

/** Phase 2: `concurrency` sessions make `searches` SearchDocs calls between them. Returns the sessions opened. */
export async function storm(run: Run): Promise<number> {
  const { options, terms } = run;
  const sessions = await openMany(run, run.main.server.url, options.concurrency, 'storm session');
  let issued = 0;
  await Promise.all(
    sessions.map(async (session, w) => {
      while (issued < options.searches) {
        run.checkDeadline('storm');
        const n = issued++;
        await run.counted(session, terms[(n + w) % terms.length]!, `storm search ${n}`);
      }
    }),
  );
  await closeAll(run, sessions, 'storm DELETE');
  return sessions.length;
}

/** Whether an initialize beyond the cap got the clean refusal: 503, Retry-After, no session, the JSON-RPC error. */
/**
 * Refused with a time to retry and no session: 503 when every session is in use, or 429 when this
 * client (the load run is one address) already holds its share of sessions, requests and streams.
 */
function cleanRefusal(answer: Awaited<ReturnType<typeof rawInitialize>>): boolean {
  const full =
    answer.status === 503 &&
    /"code":-32000,"message":"Service Unavailable: all \d+ sessions are in use/.test(answer.body);
  const share =
    answer.status === 429 &&
    /"code":-32000,"message":"Too Many Requests: this client already (holds|has) /.test(answer.body);
  return (full || share) && Number(answer.retryAfter) >= 1 && answer.sessionId === null;
}

type CapReport = LoadReport['cap'];

/** Phase 3a: the capped server filled; initializes beyond it refused while the held sessions search. */
export async function fillCap(
  run: Run,
): Promise<{ held: Session[] } & Pick<CapReport, 'refusedAtCap' | 'unexpected' | 'searchesAtCap'>> {
  const { options, terms, capped } = run;
  const held = await openMany(run, capped.server.url, options.cap.maxSessions, 'cap session (below the cap)');
  const unexpected: string[] = [];
  let refusedAtCap = 0;
  const [overAnswers] = await Promise.all([
    Promise.all(
      Array.from({ length: options.cap.over }, () => rawInitialize(capped.server.url).catch((error: Error) => error)),
    ),
    // The held sessions keep working while others are turned away.
    Promise.all(held.map((session, i) => run.counted(session, terms[i % terms.length]!, `search at the cap ${i}`))),
  ]);
  for (const answer of overAnswers) {
    if (answer instanceof Error) unexpected.push(`exception: ${answer.message}`);
    else if (cleanRefusal(answer)) refusedAtCap++;
    else unexpected.push(`${answer.status} retry-after=${answer.retryAfter} ${answer.body.slice(0, 200)}`);
  }
  const health = await fetch(capped.server.url.replace(/\/docs$/, '/healthz'));
  await health.text();
  if (health.status !== 200) run.fail('healthz at the cap', new Error(`answered ${health.status}`));
  return { held, refusedAtCap, unexpected, searchesAtCap: held.length };
}

/** Phase 3b: half the held sessions leave with DELETE, the rest are abandoned; new ones must get in after each. */
export async function recoverCap(
  run: Run,
  held: Session[],
): Promise<Pick<CapReport, 'reopenedAfterDelete' | 'reopenedAfterExpiry'>> {
  const { options, terms, capped } = run;
  const leaving = held.slice(0, Math.ceil(held.length / 2));
  for (const session of leaving) {
    await session.transport.terminateSession().catch((error: unknown) => run.fail('DELETE at the cap', error));
    await session.client.close().catch(() => undefined);
  }
  const reopened = await openMany(run, capped.server.url, leaving.length, 'reopen after DELETE');
  await pool(reopened.length, options.concurrency, (i) =>
    run.counted(reopened[i]!, terms[i % terms.length]!, `search after recovery ${i}`),
  );
  // Everyone else just goes away; once the idle timeout passes, the slots are free.
  for (const session of [...held.slice(leaving.length), ...reopened])
    await session.client.close().catch(() => undefined);
  await run.waitUntil('abandoned sessions at the cap to expire', () => capped.server.sessionCount() === 0);
  let reopenedAfterExpiry = 0;
  await pool(options.cap.maxSessions, options.concurrency, async (i) => {
    try {
      const s = await openSession(capped.server.url);
      await s.transport.terminateSession();
      await s.client.close();
      reopenedAfterExpiry++;
    } catch (error) {
      run.fail(`reopen after expiry ${i}`, error);
    }
  });
  return { reopenedAfterDelete: reopened.length, reopenedAfterExpiry };
}

/** Phase 4: every abandoned session expired, and the server ended each hung client's stream. */
export async function settle(run: Run): Promise<void> {
  const { main, capped, hung } = run;
  await run.waitUntil(
    'abandoned sessions to expire',
    () => main.server.sessionCount() === 0 && capped.server.sessionCount() === 0,
  );
  let allEnded = false;
  void Promise.all(hung.map((h) => h.ended)).then(() => {
    allEnded = true;
  });
  await run.waitUntil('the server to end the hung clients\u2019 streams', () => allEnded);
  for (const h of hung) h.destroy();
  hung.length = 0;
  for (const { tally } of [main, capped]) tally.deleted.clear();
}
