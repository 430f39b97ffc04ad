import { describe, expect, it } from 'vitest';
import { clientConfigs, TOKEN_PLACEHOLDER } from '../../src/cli/client-config.js';

const URL_ = 'http://127.0.0.1:8080/docs';

function jsonOf(client: RegExp, auth = false): unknown {
  const config = clientConfigs(URL_, { auth }).find((c) => client.test(c.client));
  if (!config) throw new Error(`no config for ${client}`);
  return JSON.parse(config.text);
}

describe('client configurations', () => {
  it("gives the SearchDocs contract's mcpServers form with url and type http", () => {
    expect(jsonOf(/^Claude Code, Cursor/)).toEqual({ mcpServers: { 'svc-docs': { url: URL_, type: 'http' } } });
  });

  it('gives the forms VS Code, Windsurf, Gemini CLI and Claude Desktop document', () => {
    expect(jsonOf(/^VS Code/)).toEqual({ servers: { 'svc-docs': { type: 'http', url: URL_ } } });
    expect(jsonOf(/^Windsurf/)).toEqual({ mcpServers: { 'svc-docs': { serverUrl: URL_ } } });
    expect(jsonOf(/^Gemini CLI/)).toEqual({ mcpServers: { 'svc-docs': { httpUrl: URL_ } } });
    expect(jsonOf(/^Claude Desktop/)).toEqual({
      mcpServers: { 'svc-docs': { command: 'npx', args: ['-y', 'mcp-remote', URL_] } },
    });
    const codex = clientConfigs(URL_).find((c) => c.client === 'OpenAI Codex');
    expect(codex?.text).toBe(`[mcp_servers.svc-docs]\nurl = "${URL_}"`);
    expect(clientConfigs(URL_).find((c) => c.client === 'Claude Code (command line)')?.text).toBe(
      `claude mcp add --transport http svc-docs ${URL_}`,
    );
  });

  it('gives the forms Antigravity (serverUrl) and opencode (type remote, 2.x and 1.x) document', () => {
    expect(jsonOf(/^Antigravity/)).toEqual({ mcpServers: { 'svc-docs': { serverUrl: URL_ } } });
    expect(jsonOf(/^opencode$/)).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: { servers: { 'svc-docs': { type: 'remote', url: URL_ } } },
    });
    expect(jsonOf(/^opencode 1\.x$/)).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: { 'svc-docs': { type: 'remote', url: URL_, enabled: true } },
    });
    expect(jsonOf(/^Antigravity/, true)).toEqual({
      mcpServers: { 'svc-docs': { serverUrl: URL_, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } },
    });
    expect(jsonOf(/^opencode$/, true)).toMatchObject({
      mcp: { servers: { 'svc-docs': { headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } } },
    });
  });

  it('adds a token placeholder, never a token, when the server needs one', () => {
    expect(jsonOf(/^Claude Code, Cursor/, true)).toEqual({
      mcpServers: {
        'svc-docs': { url: URL_, type: 'http', headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } },
      },
    });
    expect(clientConfigs(URL_, { auth: true }).find((c) => c.client === 'OpenAI Codex')?.text).toContain(
      'bearer_token_env_var = "SVC_DOCS_AUTH_TOKEN"',
    );
  });

  it('tells mcp-remote to accept plain http to a non-local host', () => {
    const config = clientConfigs('http://docs.internal:8080/docs').find((c) => c.client.startsWith('Claude Desktop'));
    expect(JSON.parse(config!.text).mcpServers['svc-docs'].args).toEqual([
      '-y',
      'mcp-remote',
      'http://docs.internal:8080/docs',
      '--allow-http',
    ]);
  });

  it('labels every variant with its client and file', () => {
    for (const c of clientConfigs(URL_)) {
      expect(c.client.length).toBeGreaterThan(0);
      expect(c.file.length).toBeGreaterThan(0);
      expect(c.text).toContain(URL_);
    }
  });
});
