import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { searchDocsOutputSchema } from '../../src/mcp/render.js';

/**
 * Probes a running svc-docs container (scripts/container-test.sh, through container-smoke, which
 * sets URL) as an MCP client would: the real SDK client opens a session on $URL/docs, searches,
 * checks the expected page comes back, and ends the session.
 *
 *   npx tsx test/container/probe.ts --search "rate limits" --expect svc-platform/limits.md \
 *     [--knowledge-bases a,b] [--built-at-file FILE]
 *
 * --knowledge-bases: exactly these are indexed (GET /readyz). --built-at-file: records the index's
 * build time on the first run and checks a later run serves the same index (not rebuilt).
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
if (values.search === undefined || values.expect === undefined) fail('usage: probe.ts --search TERM --expect SOURCE/PATH');

const client = new Client({ name: 'svc-docs-container-probe', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL('/docs', base));
await client.connect(transport);
if (transport.sessionId === undefined) fail('initialize returned no session id');
const result = (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: values.search } })) as CallToolResult;
if (result.isError) fail(`SearchDocs failed: ${JSON.stringify(result.content)}`);
const { results } = searchDocsOutputSchema.parse(result.structuredContent);
const found = results.map((r) => `${r.source}/${r.path}`);
if (!found.includes(values.expect)) fail(`"${values.search}" did not find ${values.expect}; got ${found.join(', ') || 'nothing'}`);
await transport.terminateSession();
await client.close();

const ready = (await (await fetch(new URL('/readyz', base))).json()) as { status: string; index: { knowledgeBases: string[]; builtAt: string; documents: number } };
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
console.log(`probe: ok: "${values.search}" found ${values.expect} (rank ${found.indexOf(values.expect) + 1}); index of ${ready.index.documents} documents in ${ready.index.knowledgeBases.join(', ')} built ${ready.index.builtAt}`);
