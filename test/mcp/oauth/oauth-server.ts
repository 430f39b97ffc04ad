import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppOptions, createApp } from '../../../src/serve/app.js';
import { parseServerOptions, type ServerOptionsInput } from '../../../src/settings/server-options.js';
import { openEngine, type LoadedEngine } from '../../../src/search/engine.js';
import { sampleIndex } from '../../helpers/index-fixture.js';
import { initializeBody, MCP_HEADERS, modernRequest, raw, type RawResponse } from '../../helpers/mcp-client.js';
import { type FakeIssuer, startFakeIssuer } from './issuer.js';

/**
 * The served app in OAuth resource-server mode against a fake authorization server on an
 * ephemeral port, shared by oauth.test.ts (metadata, tokens good and bad) and oauth-keys.test.ts
 * (fair shares, the signing keys, logs).
 */

export interface Docs {
  base: string;
  url: string;
  lines: string[];
  close(): Promise<void>;
}

// Live bindings: the test files read them after beforeAll has set them.
export let engine: LoadedEngine;
export let issuer: FakeIssuer;
export let docs: Docs;
export const allLines: string[] = [];

/** The HTTP server listens first, so the resource URL (the tokens' audience) can name its real port. */
export async function listening(): Promise<{ server: Server; base: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export function serveDocs(
  server: Server,
  base: string,
  settings: ServerOptionsInput,
  keyTimings?: AppOptions['oauthKeyTimings'],
): Docs {
  const lines: string[] = [];
  const { app, sessions, stateless } = createApp({
    ...parseServerOptions({ oauthResource: `${base}/docs`, ...settings }),
    oauthKeyTimings: keyTimings,
    engine: () => engine,
    log: (line) => {
      lines.push(line);
      allLines.push(line);
    },
  });
  server.on('request', app);
  return {
    base,
    url: `${base}/docs`,
    lines,
    close: async () => {
      await Promise.all([sessions.closeAll(), stateless.close()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Opens the engine, the fake issuer and the served app before a file's tests, and closes them after. */
export function useOAuthServer(): void {
  beforeAll(async () => {
    engine = await openEngine(sampleIndex());
    const { server, base } = await listening();
    issuer = await startFakeIssuer({ audience: `${base}/docs` });
    docs = serveDocs(server, base, { oauthIssuer: issuer.issuer, oauthJwksUrl: issuer.jwksUrl });
  });
  afterAll(async () => {
    await docs?.close();
    await issuer?.close();
    await engine?.close();
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const metadataUrl = (path: '/docs' | '/mcp') => `${docs.base}/.well-known/oauth-protected-resource${path}`;
export const challenge = (path: '/docs' | '/mcp', error?: string) =>
  `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${metadataUrl(path)}", scope="docs:read"`;

/** The same check sits in front of both eras: a 2026-07-28 request and a 2025 initialize. */
export async function bothEras(url: string, headers: Record<string, string>): Promise<RawResponse[]> {
  return [
    await raw(url, modernRequest('tools/list', {}, { headers })),
    await raw(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: initializeBody() }),
  ];
}

/** No line logged so far carries a token the issuer minted, its signature, or the malformed one the tests send. */
export function expectNoTokenLogged(): void {
  const everything = allLines.join('\n');
  for (const token of issuer.minted) {
    const signature = token.split('.')[2]!;
    expect(everything).not.toContain(token);
    if (signature.length > 0) expect(everything).not.toContain(signature);
  }
  expect(everything).not.toContain('not-a-jwt');
}
