import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { QueryStore } from '../../src/observe/query-store.js';
import type { SearchEngine } from '../../src/search/types.js';
import { openEngine } from '../../src/search/engine.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { initializeBody, MCP_HEADERS, messagesOf, modernRequest, raw, sessionHeaders } from '../helpers/mcp-client.js';
import { heldEngine } from '../helpers/held-engine.js';
import { useServedEngine } from '../helpers/served-engine.js';
import { waitFor } from './helpers.js';

/**
 * Issue 35, finding 4: one client took every session (1,000 in 4.7 s; every new 2025 client then
 * got 503 for up to 30 minutes), and 32 concurrent searches of one client slowed another's. Now
 * sessions and running requests are bounded per client (429 with Retry-After), a client being
 * its address, or behind a trusted proxy the address X-Forwarded-For names. All test clients run
 * on loopback, so they are told apart by X-Forwarded-For through a trusted proxy (loopback).
 */

const { serve, engine: served } = useServedEngine(() => openEngine(sampleIndex()));

const ALICE = { 'x-forwarded-for': '203.0.113.5' };
const BOB = { 'x-forwarded-for': '198.51.100.7' };

function initialize(url: string, as: Record<string, string>) {
  return raw(url, { method: 'POST', headers: { ...MCP_HEADERS, ...as }, body: initializeBody() });
}

const search = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'SearchDocs', arguments: { searchTerm: 'webhook signature' } },
  });

describe('fair shares of sessions', () => {
  it('one client holding its share of sessions does not stop a second client from opening one', async () => {
    const server = await serve({ maxSessions: 10, maxSessionsPerClient: 3, trustedProxies: ['loopback'] });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await initialize(server.url, ALICE));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    const refused = answers[3]!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((messagesOf(refused.text)[0] as { error: { message: string } }).error.message).toMatch(
      /this client already holds 3 sessions/,
    );
    const bob = await initialize(server.url, BOB);
    expect(bob.status).toBe(200);
    expect(server.sessionCount()).toBe(4);
    // Alice ends one of hers: she may open another.
    const first = answers[0]!.headers['mcp-session-id'] as string;
    expect((await raw(server.url, { method: 'DELETE', headers: { ...sessionHeaders(first), ...ALICE } })).status).toBe(
      200,
    );
    expect((await initialize(server.url, ALICE)).status).toBe(200);
  });

  it('counts X-Forwarded-For only from a trusted proxy: anyone can send the header', async () => {
    const server = await serve({ maxSessions: 10, maxSessionsPerClient: 2 });
    const statuses = [];
    for (const as of [ALICE, BOB, { 'x-forwarded-for': '192.0.2.1' }])
      statuses.push((await initialize(server.url, as)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('fair shares of running requests', () => {
  it('bounds the requests one client runs at once (429), in both eras, while another client is served', async () => {
    const held = heldEngine(served);
    const server = await serve({ engine: () => held.engine, maxRequestsPerClient: 3, trustedProxies: ['loopback'] });
    const running = [0, 1, 2].map((i) =>
      raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...ALICE }, body: search(i) }),
    );
    await waitFor('three searches running', () => held.waiting() === 3);
    const legacy = await raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...ALICE }, body: search(4) });
    const modern = await raw(server.url, modernRequest('tools/list', {}, { headers: ALICE }));
    for (const refused of [legacy, modern]) {
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
    }
    expect((await raw(server.url, modernRequest('tools/list', {}, { headers: BOB }))).status).toBe(200);
    held.release();
    for (const res of await Promise.all(running)) expect(res.status).toBe(200);
    // Her answers read, Alice has her share again.
    expect((await raw(server.url, modernRequest('tools/list', {}, { headers: ALICE }))).status).toBe(200);
  });
});

describe('fair turns of the event loop', () => {
  it("renders a light client's answer after at most one of a heavy client's that finished with it", async () => {
    // Each search runs for real, then its results are held: released together, they come back in one turn.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const engine: SearchEngine = {
      summary: () => served().summary(),
      search: async (term, options) => {
        const results = await served().search(term, options);
        waiting++;
        await held;
        return results;
      },
    };
    const store = new QueryStore({
      indexDir: mkdtempSync(join(tmpdir(), 'svc-docs-turns-')),
      maxBytes: 64 * 1024,
      log: () => undefined,
    });
    const recorded = vi.spyOn(store, 'record');
    const server = await serve({ engine: () => engine, store, trustedProxies: ['loopback'] });
    const post = (body: string, as: Record<string, string>) =>
      raw(server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...as }, body });
    const heavy = [0, 1, 2, 3, 4, 5].map((i) => post(search(i), ALICE));
    await waitFor('six searches of one client held', () => waiting === 6);
    const light = post(search(6).replace('webhook signature', 'rate limits'), BOB);
    await waitFor("the other client's search held too", () => waiting === 7);
    release();
    for (const res of await Promise.all([...heavy, light])) expect(res.status).toBe(200);
    // In the order the answers were rendered (without the turn gate: Alice's six, then Bob's).
    const terms = recorded.mock.calls.map(([outcome]) => outcome.term);
    expect(terms).toHaveLength(7);
    expect(terms.indexOf('rate limits')).toBeLessThanOrEqual(1);
  });
});
