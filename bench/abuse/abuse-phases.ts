import { INITIALIZE, loopUntil, message, modernHeaders, post, unreadRequest, type Answer } from './abuse-clients.js';
import { percentile } from '../lib/metrics.js';

/**
 * What each phase of the abuse run sends (bench/abuse/abuse.ts times them and watches the server).
 * Every phase uses its own client addresses (X-Forwarded-For through the trusted loopback proxy).
 */

export interface PhaseContext {
  url: string;
  port: number;
  /** The big page's URI. */
  bigPage: string;
  /** Seconds this phase runs, where it loops. */
  seconds: number;
  /** Clients, sessions, probes: smaller in a quick run. */
  scale: number;
}

/** A search in each era, one after another, until `done` (the soak while the index is reloaded). */
export async function lightTraffic(ctx: PhaseContext, done: () => boolean): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let searches = 0;
  while (!done()) {
    const legacy = message('tools/call', { name: 'SearchDocs', arguments: { searchTerm: 'sync waves hooks' } }, 1);
    for (const answer of [
      await search(ctx, '10.0.0.1', 'application health checks'),
      await post(ctx.url, legacy, '10.0.0.2'),
    ]) {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      searches++;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { searches, ...prefixed('status', statuses) };
}

/** Four clients sending batches of 100 resources/read of the big page at once, over and over. */
export async function batchFlood(ctx: PhaseContext): Promise<Record<string, number>> {
  const read = (i: number) => JSON.parse(message('resources/read', { uri: ctx.bigPage }, i)) as unknown;
  const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => read(i)));
  const tally = { batches: 0, refused: 0, largestAnswerBytes: 0 };
  await loopUntil(performance.now() + ctx.seconds * 1000, 4, async (w) => {
    const answer = await post(ctx.url, batch, `10.1.0.${w}`);
    tally.batches++;
    if (answer.status === 400) tally.refused++;
    tally.largestAnswerBytes = Math.max(tally.largestAnswerBytes, answer.bytes);
  });
  return tally;
}

/** Four clients reading the big page part by part (2026-07-28), over and over. */
export async function pageParts(ctx: PhaseContext): Promise<Record<string, number>> {
  const tally = { reads: 0, largestAnswerBytes: 0 };
  await loopUntil(performance.now() + ctx.seconds * 1000, 4, async (w) => {
    const uri = `${ctx.bigPage}?part=${1 + (tally.reads % 30)}`;
    const body = message('resources/read', { uri }, 1, true);
    const answer = await post(ctx.url, body, `10.1.1.${w}`, modernHeaders('resources/read', uri));
    tally.reads++;
    tally.largestAnswerBytes = Math.max(tally.largestAnswerBytes, answer.bytes);
  });
  return tally;
}

const EVERY_METHOD: [string, Record<string, unknown>][] = [
  ['ping', {}],
  ['tools/list', {}],
  ['prompts/list', {}],
  ['resources/templates/list', {}],
  ['logging/setLevel', { level: 'info' }],
  ['resources/list', {}],
  ['resources/read', { uri: 'BIG' }],
  ['tools/call', { name: 'SearchDocs', arguments: { searchTerm: 'sync waves' } }],
  ['prompts/get', { name: 'x' }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: 'b' } }],
];

/** A batch of 16 (the most a batch may hold) of each method, in a 2025 session: what each is answered, and how big. */
export async function batchesOfEveryMethod(
  ctx: PhaseContext,
): Promise<{ method: string; status: number; bytes: number }[]> {
  const client = '10.2.0.1';
  const init = await post(ctx.url, INITIALIZE, client);
  const session = { 'mcp-session-id': init.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
  await post(ctx.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), client, session);
  const rows = [];
  for (const [method, raw] of EVERY_METHOD) {
    const params = raw.uri === 'BIG' ? { uri: ctx.bigPage } : raw;
    const batch = `[${Array.from({ length: 16 }, (_, i) => message(method, params, i)).join(',')}]`;
    const answer = await post(ctx.url, batch, client, session);
    rows.push({ method, status: answer.status, bytes: answer.bytes });
  }
  return rows;
}

/** Clients (half 2026-07-28, half 2025 without a session) that ask for the big page's first part and never read. */
export function unreadClients(ctx: PhaseContext): { destroy(): void } {
  const sockets = Array.from({ length: 200 * ctx.scale }, (_, i) => {
    const modern = i % 2 === 0;
    const body = message('resources/read', { uri: ctx.bigPage }, i, modern);
    const headers = modern ? modernHeaders('resources/read', ctx.bigPage) : {};
    return unreadRequest(ctx.port, body, `10.3.${i >> 8}.${i & 255}`, headers);
  });
  return { destroy: () => sockets.forEach((s) => s.destroy()) };
}

/** Sessions opened and abandoned by 30 clients; then one client fills its share and another opens one. */
export async function abandonedSessions(ctx: PhaseContext): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const count = (answer: Answer) => (statuses[answer.status] = (statuses[answer.status] ?? 0) + 1);
  const perClient = Math.round(10 * ctx.scale);
  for (let c = 0; c < 30; c++)
    await Promise.all(Array.from({ length: perClient }, () => post(ctx.url, INITIALIZE, `10.4.0.${c}`).then(count)));
  let held = 0;
  for (;;) {
    const answer = await post(ctx.url, INITIALIZE, '10.4.1.1');
    if (answer.status !== 200 || held > 10_000) break;
    held++;
  }
  const other = await post(ctx.url, INITIALIZE, '10.4.1.2');
  return {
    abandoned: 30 * perClient,
    ...prefixed('status', statuses),
    oneClientHeld: held,
    otherClientStatus: other.status,
  };
}

function prefixed(prefix: string, counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [`${prefix}${k}`, v]));
}

/** Eight clients asking for paths of 16 KB of `eyJ` (what made the log redactor quadratic). */
export async function redactionPaths(ctx: PhaseContext): Promise<Record<string, number>> {
  const path = `/docs/${'eyJ'.repeat(5400)}`;
  let requests = 0;
  await loopUntil(performance.now() + ctx.seconds * 1000, 8, async () => {
    await fetch(`${ctx.url.replace(/\/docs$/, '')}${path}`).then((r) => r.arrayBuffer());
    requests++;
  });
  return { requests };
}

const COMMON = 'application sync argocd cluster resource repository git kubernetes server config status project';
const HEAVY = `${COMMON} `.repeat(Math.floor(1000 / (COMMON.length + 1))).trim();

function search(ctx: PhaseContext, client: string, term: string): Promise<Answer> {
  const body = message('tools/call', { name: 'SearchDocs', arguments: { searchTerm: term } }, 1, true);
  return post(ctx.url, body, client, modernHeaders('tools/call', 'SearchDocs'));
}

/** A light client's search alone, then while another runs its share of heavy searches at once. */
export async function fairness(ctx: PhaseContext, share: number): Promise<Record<string, number>> {
  const light = async (n: number) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await search(ctx, '10.5.0.2', 'sync waves hooks');
      ms.push(performance.now() - started);
    }
    return percentile(ms, 50);
  };
  const alone = await light(Math.round(40 * ctx.scale));
  let heavy = 0;
  let refused = 0;
  const until = performance.now() + ctx.seconds * 1000;
  const load = loopUntil(until, share + 1, async () => {
    const answer = await search(ctx, '10.5.0.1', HEAVY);
    if (answer.status !== 429) heavy++;
    else {
      // Retry-After says 1 s; a client that hammers anyway is the worst case, but its loop would eat the machine.
      refused++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const underLoad = await light(Math.round(40 * ctx.scale));
  await load;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    aloneP50Ms: round(alone),
    underLoadP50Ms: round(underLoad),
    ratio: round(underLoad / alone),
    heavy,
    refused,
  };
}
