import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/serve/http-server.js';
import { openEngine } from '../../src/search/engine.js';
import { RELEVANCE_LABELS, type SearchEngine } from '../../src/search/types.js';
import { fixtureIndex, sampleIndex } from '../helpers/index-fixture.js';
import { connectClient, raw, sessionHeaders, textOf } from '../helpers/mcp-client.js';
import { namedResults } from '../helpers/search-text.js';

/** The real SDK client against the real server over a real index, on an ephemeral port. */

const STARS: Record<string, number> = {
  'Excellent match': 3,
  'Very relevant': 2,
  Relevant: 1,
  'Somewhat relevant': 0,
  'Moderate match': 0,
};

let engine: SearchEngine & { close(): Promise<void> };
let server: RunningServer;
/** Flip to make the engine unreachable, as during a failed reload. */
let engineDown = false;
const logLines: string[] = [];

beforeAll(async () => {
  engine = await openEngine(sampleIndex());
  server = await startHttpServer({
    port: 0,
    engine: () => {
      if (engineDown) throw new Error('index-data/CURRENT names a build that no longer exists');
      return engine;
    },
    log: (line) => logLines.push(line),
  });
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

describe('SearchDocs over Streamable HTTP, end to end', () => {
  it('initializes, lists the tool, searches, terminates, and then answers 404 for the session', async () => {
    const { client, transport, close } = await connectClient(server.url);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/);
      expect(client.getServerVersion()?.name).toBe('svc-docs');
      const sessionId = transport.sessionId;
      expect(sessionId).toMatch(/^[\x21-\x7e]{32,}$/);

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['SearchDocs']);
      const tool = tools[0]!;
      expect(tool.inputSchema).toMatchObject({
        type: 'object',
        required: ['searchTerm'],
        additionalProperties: false,
        properties: { searchTerm: { type: 'string', minLength: 1, maxLength: 1000 } },
      });
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['searchTerm', 'knowledgeBase']);
      expect(tool.description).toMatch(/specific technical terms/i);
      expect(tool.description).toMatch(/most likely to hold the answer, in page order \(up to 31 consecutive/);
      expect(tool.description).toContain('"Not shown:" line');
      expect(tool.annotations?.readOnlyHint).toBe(true);

      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'zanzibar setting' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const text = textOf(result);
      const top = namedResults(text)[0]!;
      expect(top).toMatchObject({ title: 'Long Reference', source: 'platform', path: 'long.md' });
      expect(RELEVANCE_LABELS).toContain(top.relevance);
      const stars = '★'.repeat(STARS[top.relevance]!);
      expect(text).toContain(`Relevance: ${stars ? `${stars} ` : ''}${top.relevance}`);
      expect(text).toMatch(
        />>>>> BEST MATCH \| section 42 \| Long Reference > Topic 40 <<<<<\n## Topic 40\n\nDetails for topic number 40\. The zanzibar setting lives here\./,
      );
      expect(text).toContain(
        '----- section 27 | Long Reference > Topic 25 (sections 1-26 not shown) -----\n## Topic 25',
      );
      expect(text).toContain('----- section 28 -----\n## Topic 26');
      expect(text).toContain("Content: sections 27-57 of the page's 61; the whole page: svc-docs://platform/long.md");
      const firstResult = text.split('===== Result ')[1] ?? '';
      expect(firstResult).toMatch(/^1 =====/);
      expect(firstResult.match(/^(-----|>>>>>) /gm)).toHaveLength(31);

      await transport.terminateSession();
      const after = await raw(server.url, {
        method: 'POST',
        headers: sessionHeaders(sessionId!),
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(after.status).toBe(404);
      expect(JSON.parse(after.text)).toMatchObject({
        error: { code: -32001, message: expect.stringMatching(/initialize/) },
      });
    } finally {
      await close();
    }
  });

  it('answers bad arguments with an error that says what is wrong, and the session stays usable', async () => {
    const { client, transport, close } = await connectClient(server.url);
    try {
      const cases: [unknown, RegExp][] = [
        [{}, /searchTerm/],
        [{ searchTerm: '   ' }, /searchTerm is empty/],
        [{ searchTerm: 'x'.repeat(1001) }, /longer than 1000 characters/],
        [{ searchTerm: 'webhooks', limit: 3 }, /Unrecognized key.*limit/],
        [{ searchTerm: 42 }, /expected string/],
      ];
      for (const [args, message] of cases) {
        const result = (await client.callTool({
          name: 'SearchDocs',
          arguments: args as Record<string, unknown>,
        })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(message);
      }
      const ok = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: '  skip duplicate event id  ' },
      })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      const text = textOf(ok);
      expect(text).toMatch(/^\d results? for "skip duplicate event id", best first\./);
      expect(namedResults(text)[0]?.path).toBe('webhooks.md');
      await transport.terminateSession();
    } finally {
      await close();
    }
  });

  it('turns an engine failure into a tool error without ending the session', async () => {
    const { client, transport, close } = await connectClient(server.url);
    try {
      engineDown = true;
      const failed = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'webhooks' },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(
        /^SearchDocs could not search the index: index-data\/CURRENT names a build that no longer exists\. The session is still usable/,
      );
      expect(logLines.some((l) => JSON.parse(l).event === 'search-failed')).toBe(true);

      engineDown = false;
      const ok = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'access token valid hours' },
      })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect(namedResults(textOf(ok))[0]?.path).toBe('tokens.md');
      await transport.terminateSession();
    } finally {
      engineDown = false;
      await close();
    }
  });

  it('reads the engine per request, so an open session searches a reloaded index', async () => {
    const next = await openEngine(
      await fixtureIndex({ 'release/notes.md': '# Release notes\n\nThe quokka release adds batch exports.\n' }),
    );
    let current: SearchEngine = engine;
    const reloading = await startHttpServer({
      port: 0,
      engine: () => current,
      log: () => undefined,
    });
    const { client, transport, close } = await connectClient(reloading.url);
    try {
      const search = async () =>
        namedResults(
          textOf(
            (await client.callTool({
              name: 'SearchDocs',
              arguments: { searchTerm: 'quokka release batch exports' },
            })) as CallToolResult,
          ),
        );
      expect((await search()).map((r) => r.source)).not.toContain('release');
      current = next;
      expect((await search())[0]).toMatchObject({
        source: 'release',
        path: 'notes.md',
        title: 'Release notes',
      });
      await transport.terminateSession();
    } finally {
      await close();
      await reloading.close();
      await next.close();
    }
  });

  it('keeps a response within the size budget without losing the best match, and says where the rest of the page is', async () => {
    const small = await startHttpServer({
      port: 0,
      engine: () => engine,
      responseBudgetChars: 2000,
      log: () => undefined,
    });
    const { client, transport, close } = await connectClient(small.url);
    try {
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: 'zanzibar setting' },
      })) as CallToolResult;
      const text = textOf(result);
      expect(result.structuredContent).toBeUndefined();
      expect(text.length).toBeLessThanOrEqual(2000);
      expect(text).toMatch(/>>>>> BEST MATCH[^\n]*\n[^]*zanzibar/);
      expect(text).toMatch(/Content: sections? [\d, and-]+ of the page's \d+; the whole page: svc-docs:\/\//);
      await transport.terminateSession();
    } finally {
      await close();
      await small.close();
    }
  });
});
