import { describe, expect, it } from 'vitest';
import { parseServerOptions, type ServerOptionsInput } from '../../src/settings/server-options.js';
import { openEngine } from '../../src/search/engine.js';
import type { IndexSummary } from '../../src/search/types.js';
import { readyEntry } from '../../src/cli/serve-events.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { initializeBody, MCP_HEADERS, raw } from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * The ready entry (what `svc-docs serve` logs once serving) names a URL clients can use: on a wildcard bind (a container's 0.0.0.0) its
 * host is one the Host check accepts, checked against a real server with that Host header; an
 * OAuth resource URL (the one clients use by definition) is shown as given, with a warning when
 * the Host check would refuse it.
 */

const { serve } = useServedEngine(() => openEngine(bundledIndex()));

/** The ready entry's URL, and its message, notes and snippet as text, for a server listening at `listening` with these settings. */
function banner(listening: string, input: ServerOptionsInput, oauthResource?: string): { url: string; text: string } {
  const index = { knowledgeBases: [], documents: 0, sections: 0, builtAt: '' } as unknown as IndexSummary;
  const entry = readyEntry(listening, { ...parseServerOptions(input), oauthResource }, index);
  const notes = Array.isArray(entry.notes) ? (entry.notes as string[]) : [];
  const text = [entry.message, ...notes, JSON.stringify(entry.clientConfig, null, 2)].join('\n');
  const url = /^svc-docs is serving MCP at (\S+)$/m.exec(text)?.[1];
  if (url === undefined) throw new Error(`no URL in the ready entry:\n${text}`);
  expect(entry.url).toBe(url);
  return { url, text };
}

/** An initialize sent to the server's port with the Host header of `url`: 403 when the name is refused. */
async function initializeAs(port: number, url: string): Promise<number> {
  const res = await raw(`http://127.0.0.1:${port}/docs`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, host: new URL(url).host },
    body: initializeBody(),
  });
  return res.status;
}

describe('the start banner on a wildcard bind', () => {
  it('names an accepted host, where the listening address would be refused', async () => {
    const settings = { host: '0.0.0.0', allowedHosts: ['docs.internal', 'localhost'] };
    const server = await serve({ ...settings, port: 0 });
    const { url, text } = banner(server.url, { ...settings, port: server.port });
    expect(url).toBe(`http://docs.internal:${server.port}/docs`);
    expect(await initializeAs(server.port, url)).toBe(200);
    expect(await initializeAs(server.port, server.url)).toBe(403);
    expect(text).toContain(`"url": "${url}"`);
    expect(text).toContain('host names docs.internal, localhost only');
  });

  it('with the default names, says which are accepted, how to add more, and that a published port differs', async () => {
    const server = await serve({ host: '0.0.0.0', port: 0 });
    const { url, text } = banner(server.url, { host: '0.0.0.0', port: server.port });
    expect(await initializeAs(server.port, url)).toBe(200);
    expect(text).toContain('host names localhost, 127.0.0.1, [::1] only');
    expect(text).toContain('SVC_DOCS_ALLOWED_HOSTS (e.g. SVC_DOCS_ALLOWED_HOSTS=docs.internal,localhost)');
    expect(text).toContain(`docker run -p HOST_PORT:${server.port}), clients use HOST_PORT instead`);
  });
});

describe('the start banner elsewhere', () => {
  it('shows the listening URL of a specific bind, with no notes', () => {
    const { url, text } = banner('http://127.0.0.1:8080/docs', {});
    expect(url).toBe('http://127.0.0.1:8080/docs');
    expect(text).not.toContain('host names');
  });

  it("shows OAuth's resource URL as given, and warns when its host would be refused", () => {
    const accepted = banner('http://127.0.0.1:8080/docs', { host: '0.0.0.0' }, 'http://localhost:9000/docs');
    expect(accepted.url).toBe('http://localhost:9000/docs');
    expect(accepted.text).not.toContain('Warning');
    const refused = banner('http://127.0.0.1:8080/docs', {}, 'https://docs.example.com/docs');
    expect(refused.url).toBe('https://docs.example.com/docs');
    expect(refused.text).toContain(
      'Warning: docs.example.com is not among the accepted host names (localhost, 127.0.0.1, [::1])',
    );
  });
});
