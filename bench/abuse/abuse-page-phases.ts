import { request } from 'node:http';
import { INITIALIZE, message, modernHeaders, post } from './abuse-clients.js';
import type { PhaseContext } from './abuse-phases.js';

/**
 * The phases of issue 40 (bench/abuse/abuse.ts times /healthz through each): the search page's
 * home view after a full query store, a hostile page rendered by many at once, ten addresses
 * holding the session cap, and one address opening streams. The heavy-versus-light client is the
 * `fair shares` phase (abuse-phases.ts).
 */

/** A GET as client `client`; resolves with its status and time in ms. */
function get(
  url: string,
  client: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { 'x-forwarded-for': client, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

const pageOf = (ctx: PhaseContext) => ctx.url.replace(/\/docs$/, '/');
const round = (x: number) => Math.round(x);

/** 5,000 searches of 1,000 characters recorded (8 addresses, 8 at once), then one search and three home views at once. */
export async function homeAfterSearches(ctx: PhaseContext): Promise<Record<string, number>> {
  const total = Math.round(5000 * ctx.scale);
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      while (sent < total) {
        const term = `${sent++} ${'unmatched words of a long question '.repeat(28)}`.slice(0, 1000);
        const body = message('tools/call', { name: 'SearchDocs', arguments: { searchTerm: term } }, 1, true);
        await post(ctx.url, body, `10.6.0.${w}`, modernHeaders('tools/call', 'SearchDocs'));
      }
    }),
  );
  const search = message('tools/call', { name: 'SearchDocs', arguments: { searchTerm: 'sync waves' } }, 1, true);
  const [, ...views] = await Promise.all([
    post(ctx.url, search, '10.6.1.1', modernHeaders('tools/call', 'SearchDocs')),
    ...[1, 2, 3].map((i) => get(pageOf(ctx), `10.6.2.${i}`)),
  ]);
  return {
    recorded: total,
    ...Object.fromEntries(
      views.flatMap((v, i) => [
        [`view${i}Status`, v.status],
        [`view${i}Ms`, round(v.ms)],
      ]),
    ),
  };
}

/** 16 GETs at once of a search whose answer shows the hostile page (6,000 nested `>`, emphasis runs), from one address. */
export async function hostilePageViews(ctx: PhaseContext): Promise<Record<string, number>> {
  const url = `${pageOf(ctx)}?q=${encodeURIComponent('quokka zanzibar nesting')}`;
  const views = await Promise.all(Array.from({ length: 16 }, () => get(url, '10.7.0.1')));
  const statuses: Record<string, number> = {};
  for (const v of views) statuses[`status${v.status}`] = (statuses[`status${v.status}`] ?? 0) + 1;
  return { ...statuses, slowestMs: round(Math.max(...views.map((v) => v.ms))) };
}

/**
 * Ten addresses open their share of sessions (the whole cap), each 8 at once (its share of running
 * requests: 100 at once got 429 for all but 8 or so, which left the cap far from full); then a new
 * client opens one.
 */
export async function sessionsHeld(ctx: PhaseContext): Promise<Record<string, number>> {
  const perAddress = Math.round(100 * ctx.scale);
  let opened = 0;
  for (let a = 0; a < 10; a++)
    for (let sent = 0; sent < perAddress; sent += 8) {
      const wave = Math.min(8, perAddress - sent);
      const answers = await Promise.all(Array.from({ length: wave }, () => post(ctx.url, INITIALIZE, `10.8.0.${a}`)));
      opened += answers.filter((x) => x.status === 200).length;
    }
  const started = performance.now();
  const newcomer = await post(ctx.url, INITIALIZE, '10.8.1.1');
  return { opened, newClientStatus: newcomer.status, newClientMs: round(performance.now() - started) };
}

/** One address opens 100 subscriptions/listen streams and holds what it is given for two seconds. */
export async function listenStreams(ctx: PhaseContext): Promise<Record<string, number>> {
  const body = message('subscriptions/listen', { notifications: { toolsListChanged: true } }, 1, true);
  const answers = await Promise.all(
    Array.from({ length: Math.round(100 * ctx.scale) }, () =>
      post(ctx.url, body, '10.9.0.1', modernHeaders('subscriptions/listen')),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[`status${a.status}`] = (statuses[`status${a.status}`] ?? 0) + 1;
  return statuses;
}
