import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { namedResults } from '../helpers/search-text.js';

/**
 * Probes a running svc-docs container (scripts/container-test.sh, through container-smoke, which
 * sets URL) as MCP clients would, in both protocol eras: the v1 SDK client opens a 2025 session
 * on $URL/docs, searches, checks the expected page comes back, and ends the session; the v2 SDK
 * client pinned to 2026-07-28 (server/discover, no session) does the same search.
 *
 *   npx tsx test/container/probe.ts --search "rate limits" --expect svc-platform/limits.md \
 *     [--knowledge-bases a,b] [--built-at-file FILE]
 *
 * --knowledge-bases: exactly these are indexed (GET /readyz). --built-at-file: records the index's
 * build time on the first run and checks a later run serves the same index (not rebuilt).
 * AUTH_TOKEN in the environment: every request carries it as a bearer token.
 */

const { values } = parseArgs({
  options: {
    search: { type: 'string' },
    expect: { type: 'string' },
    'knowledge-bases': { type: 'string' },
    'built-at-file': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`probe: FAIL: ${message}`);
  process.exit(1);
}

const base = process.env.URL ?? fail('URL is not set (run me through container-smoke)');
const token = process.env.AUTH_TOKEN;
const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
if (values.search === undefined || values.expect === undefined)
  fail('usage: probe.ts --search TERM --expect SOURCE/PATH');

/** source/path of each result in SearchDocs' text, in rank order. */
function pagesIn(result: Pick<CallToolResult, 'content' | 'isError'>, era: string): string[] {
  if (result.isError) fail(`${era}: SearchDocs failed: ${JSON.stringify(result.content)}`);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return namedResults(text).map((r) => `${r.source}/${r.path}`);
}

function expectFound(found: string[], era: string): void {
  if (!found.includes(values.expect!))
    fail(`${era}: "${values.search}" did not find ${values.expect}; got ${found.join(', ') || 'nothing'}`);
}

const client = new Client({ name: 'svc-docs-container-probe', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL('/docs', base), { requestInit: { headers } });
await client.connect(transport);
if (transport.sessionId === undefined) fail('initialize returned no session id');
const found = pagesIn(
  (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: values.search } })) as CallToolResult,
  '2025-11-25',
);
expectFound(found, '2025-11-25');
await transport.terminateSession();
await client.close();

const modern = new ModernClient(
  { name: 'svc-docs-container-probe', version: '1.0.0' },
  { versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
await modern.connect(new ModernTransport(new URL('/docs', base), { requestInit: { headers } }));
if (modern.getProtocolEra() !== 'modern')
  fail(`the v2 client pinned to 2026-07-28 negotiated ${modern.getProtocolEra()}`);
expectFound(
  pagesIn(await modern.callTool({ name: 'SearchDocs', arguments: { searchTerm: values.search } }), '2026-07-28'),
  '2026-07-28',
);
await modern.close();

const ready = (await (await fetch(new URL('/readyz', base), { headers })).json()) as {
  status: string;
  index: { knowledgeBases: string[]; builtAt: string; documents: number };
};
if (ready.status !== 'ready') fail(`/readyz says ${JSON.stringify(ready)}`);
const wantedBases = values['knowledge-bases']?.split(',');
if (wantedBases && JSON.stringify([...ready.index.knowledgeBases].sort()) !== JSON.stringify([...wantedBases].sort())) {
  fail(`indexed knowledge bases are ${ready.index.knowledgeBases.join(', ')}, expected ${wantedBases.join(', ')}`);
}
const builtAtFile = values['built-at-file'];
if (builtAtFile !== undefined) {
  if (!existsSync(builtAtFile)) writeFileSync(builtAtFile, ready.index.builtAt);
  else if (readFileSync(builtAtFile, 'utf8') !== ready.index.builtAt) {
    fail(`the index was rebuilt on restart: built ${ready.index.builtAt}, before ${readFileSync(builtAtFile, 'utf8')}`);
  }
}
console.log(
  `probe: ok (2025-11-25 session and 2026-07-28): "${values.search}" found ${values.expect} (rank ${found.indexOf(values.expect) + 1}); index of ${ready.index.documents} documents in ${ready.index.knowledgeBases.join(', ')} built ${ready.index.builtAt}`,
);
