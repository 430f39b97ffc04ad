import { describe, expect, it } from 'vitest';
import { pageUri } from '../../src/mcp/tools/page-uri.js';
import { openEngine } from '../../src/search/engine.js';
import { fixtureIndex } from '../helpers/index-fixture.js';
import {
  connectClient,
  connectV2,
  MCP_HEADERS,
  MODERN_VERSION,
  envelope,
  messagesOf,
  modernRequest,
  openRawSession,
  raw,
  sessionHeaders,
} from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * Issue 35, finding 1: a batch of page reads flooded the server (a 10.7 KB batch of 100
 * resources/read of a 1 MB page answered 106.9 MB, each page whole). Every message that returns
 * documentation stays within a budget now: a long page is read in parts, and JSON-RPC batches
 * hold only cheap messages (2025 era) or are refused (2026-07-28).
 */

/** A page just under the indexer's 1 MiB file limit: 400 sections of about 2.5 KB. */
const BIG_PAGE =
  '# Big reference\n\nEvery option, one section each.\n\n' +
  Array.from(
    { length: 400 },
    (_, i) => `## Option ${i}\n\n${`Option ${i} sets the knob number ${i} of the quokka engine. `.repeat(40)}\n`,
  ).join('\n');

const PAGE_BUDGET = 20_000;
const uri = pageUri('ref', 'big.md');

const { serve } = useServedEngine(async () =>
  openEngine(await fixtureIndex({ 'ref/big.md': BIG_PAGE, 'ref/small.md': '# Small\n\nA short page.\n' })),
);

const read = (id: number, target = uri) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: target } });

function errorOf(text: string): { code: number; message: string } {
  return (messagesOf(text)[0] as { error: { code: number; message: string } }).error;
}

describe('a JSON-RPC batch cannot carry documentation reads', () => {
  it('refuses a batch of 100 resources/read in a session and without one (2025 era), with a clear error', async () => {
    const server = await serve({ pageBudgetChars: PAGE_BUDGET });
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => read(i)));
    const session = await openRawSession(server.url);
    for (const headers of [sessionHeaders(session), { ...MCP_HEADERS }]) {
      const res = await raw(server.url, { method: 'POST', headers, body: batch });
      expect(res.status).toBe(400);
      expect(res.text.length).toBeLessThan(1000);
      expect(errorOf(res.text)).toEqual({
        code: -32600,
        message: expect.stringMatching(/resources\/read.*one per request/),
      });
    }
  });

  it('refuses every batch in the 2026-07-28 era, whatever it holds', async () => {
    const server = await serve({ pageBudgetChars: PAGE_BUDGET });
    const modernPing = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: envelope() } };
    for (const body of [[modernPing], [read(1), modernPing], [{ jsonrpc: '2.0', id: 2, method: 'ping' }]]) {
      const res = await raw(server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': MODERN_VERSION },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(errorOf(res.text)).toEqual({ code: -32600, message: expect.stringMatching(/2026-07-28/) });
    }
  });

  it('still answers a 2025 batch of cheap messages per message, and refuses a long one', async () => {
    const server = await serve();
    const session = await openRawSession(server.url);
    const cheap = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'resources/templates/list' },
    ];
    const ok = await raw(server.url, { method: 'POST', headers: sessionHeaders(session), body: JSON.stringify(cheap) });
    expect(ok.status).toBe(200);
    expect(messagesOf(ok.text)).toHaveLength(3);
    for (const method of ['tools/call', 'resources/list', 'prompts/get', 'completion/complete']) {
      const res = await raw(server.url, {
        method: 'POST',
        headers: sessionHeaders(session),
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: 2, method, params: {} },
        ]),
      });
      expect([method, res.status]).toEqual([method, 400]);
    }
    const long = Array.from({ length: 17 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const refused = await raw(server.url, {
      method: 'POST',
      headers: sessionHeaders(session),
      body: JSON.stringify(long),
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.text).message).toMatch(/at most 16 messages/);
  });
});

describe('a long page is read in parts within the page budget', () => {
  it('answers resources/read of a 1 MB page with its first part, naming the next, and every part in turn (both eras)', async () => {
    const server = await serve({ pageBudgetChars: PAGE_BUDGET });
    const modern = await connectV2(server.url, { pin: MODERN_VERSION });
    const legacy = await connectClient(server.url);
    try {
      for (const client of [modern.client, legacy.client]) {
        const seen: string[] = [];
        let next: string | undefined = uri;
        while (next !== undefined) {
          const answer: { contents: unknown[] } = await client.readResource({ uri: next });
          const text = (answer.contents[0] as { text: string }).text;
          expect(text.length).toBeLessThanOrEqual(PAGE_BUDGET + 300);
          seen.push(text);
          next = /Next part: (svc-docs:\/\/\S+)\]/.exec(text)?.[1];
          expect(seen.length).toBeLessThan(200);
        }
        expect(seen.length).toBeGreaterThan(40);
        expect(seen[0]).toMatch(/^# Big reference\n/);
        expect(seen[0]).toMatch(new RegExp(`Part 1 of ${seen.length}\\b`));
        expect(seen.at(-1)).toMatch(new RegExp(`Part ${seen.length} of ${seen.length}, the last`));
        // Every section of the page was shown, in order.
        const all = seen.join('\n');
        let at = 0;
        for (let i = 0; i < 400; i++) {
          const found = all.indexOf(`## Option ${i}\n`, at);
          expect(found, `section ${i}`).toBeGreaterThan(at - 1);
          at = found;
        }
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('reads a short page whole, as before, and refuses a part past the end with the number of parts', async () => {
    const server = await serve({ pageBudgetChars: PAGE_BUDGET });
    const small = pageUri('ref', 'small.md');
    const readOf = (target: string) =>
      modernRequest('resources/read', { uri: target }, { headers: { 'mcp-name': target } });
    const whole = await raw(server.url, readOf(small));
    const result = (messagesOf(whole.text)[0] as { result: { contents: { text: string }[] } }).result;
    expect(result.contents[0]!.text).toBe('# Small\n\nA short page.');
    const past = await raw(server.url, readOf(`${uri}?part=999`));
    expect(errorOf(past.text)).toEqual({
      code: -32602,
      message: expect.stringMatching(/has \d+ parts \(1-\d+\); part 999 is past the end/),
    });
  });
});
