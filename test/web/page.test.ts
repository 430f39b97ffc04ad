import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { QueryStore, readQueryRecords } from '../../src/observe/query-store.js';
import { openEngine } from '../../src/search/engine.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { connectClient, raw, textOf } from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';
import { placeholderOf } from '../../src/web/page-view.js';

/**
 * The search page over HTTP (its behaviour in a browser: search-page-browser.test.ts): the same
 * answer text SearchDocs gives the model, a strict Content-Security-Policy, the access checks of
 * /docs, off by a setting, and its searches kept out of the query store.
 */

const { serve, engine } = useServedEngine(() => openEngine(bundledIndex()));

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

function page(url: string, query = '', headers: Record<string, string> = {}) {
  return raw(`${url.replace(/\/docs$/, '')}/${query}`, { method: 'GET', headers });
}

describe('the search page', () => {
  it('shows exactly the text SearchDocs gives the model, under a policy that allows no script', async () => {
    const server = await serve();
    const term = 'verify the webhook signature';
    const { client, close } = await connectClient(server.url);
    let modelText: string;
    try {
      modelText = textOf(
        (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: term } })) as CallToolResult,
      );
    } finally {
      await close();
    }
    const response = await page(server.url, `?q=${encodeURIComponent(term)}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).not.toMatch(/script-src|unsafe/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const pre = /<section class="model"[^>]*>.*?<pre>([\s\S]*?)<\/pre>/.exec(response.text)?.[1];
    expect(unescape(pre!)).toBe(modelText);
    // The summary counts the results the model's text holds (it counted those found, 5 beside 4).
    const shown = (modelText.match(/^===== Result \d+ =====$/gm) ?? []).length;
    expect(response.text).toMatch(new RegExp(`<p class="note">${shown} results? for “`));
    expect(response.text).toContain('Best match · section');
    expect(response.text).not.toMatch(/<script/i);
  });

  it('lists the knowledge bases with their pages, and refuses a search term SearchDocs would refuse', async () => {
    const server = await serve();
    const home = await page(server.url);
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/<tr><td>svc-platform<\/td><td class="n">\d+<\/td>/);
    expect(home.text).toContain('Docs-gap report');
    // The box's example is a main topic of the docs served, never a fixed one.
    expect(home.text).toContain(`placeholder="${placeholderOf(engine().summary())}"`);
    const tooLong = await page(server.url, `?q=${'x'.repeat(1001)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('searchTerm is longer than 1000 characters');
  });

  it('has the Host, Origin and token checks of /docs, takes the token as a Basic password, and can be off', async () => {
    const token = 'page-token-0123456789abcdef';
    const basic = (password: string) => `Basic ${Buffer.from(`me:${password}`).toString('base64')}`;
    const guarded = await serve({ authToken: token });
    expect((await page(guarded.url)).status).toBe(401);
    expect((await page(guarded.url)).headers['www-authenticate']).toMatch(/^Basic realm="svc-docs"/);
    expect((await page(guarded.url, '', { authorization: basic(`${token}x`) })).status).toBe(401);
    expect((await page(guarded.url, '', { authorization: 'Basic bm90LWJhc2U2NA' })).status).toBe(401);
    expect((await page(guarded.url, '', { authorization: basic(token) })).status).toBe(200);
    expect((await page(guarded.url, '', { authorization: `Bearer ${token}` })).status).toBe(200);
    const ok = { authorization: basic(token) };
    expect((await page(guarded.url, '', { ...ok, host: 'evil.example' })).status).toBe(403);
    expect((await page(guarded.url, '', { ...ok, origin: 'https://evil.example' })).status).toBe(403);
    const off = await serve({ webPage: false });
    expect((await page(off.url)).status).toBe(404);
  });

  it('does not record its own searches in the query store (the report is about what assistants ask)', async () => {
    const store = new QueryStore({
      indexDir: mkdtempSync(join(tmpdir(), 'svc-docs-page-store-')),
      maxBytes: 64 * 1024,
      log: () => undefined,
    });
    const server = await serve({ store });
    expect((await page(server.url, '?q=rate+limits')).status).toBe(200);
    const { client, close } = await connectClient(server.url);
    try {
      await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: 'banana bread recipe' } });
    } finally {
      await close();
    }
    await store.flush();
    expect((await readQueryRecords(store.indexDir)).map((r) => r.term)).toEqual(['banana bread recipe']);
    const home = await page(server.url);
    expect(home.text).toMatch(/Questions the docs did not cover<\/h3>.*banana bread recipe/s);
  });
});
