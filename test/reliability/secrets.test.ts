import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  queryWallets,
  startFakePlatform,
  TokenManager,
  type FakePlatform,
  type FetchLike,
  type PlatformLogEntry,
} from '../../packages/platform/src/index.js';
import { fixtureIndex, tempDir } from '../helpers/index-fixture.js';
import { connectClient, initializeBody, MCP_HEADERS, openRawSession, sessionHeaders } from '../helpers/mcp-client.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';
import { startFakeIssuer } from '../mcp/oauth/issuer.js';
import { startServe } from '../helpers/cli.js';
import { cliEnv, linesOf, runCli, send } from './helpers.js';

/**
 * Secrets never reach logs or error messages: a whole `svc-docs serve` run with a token, driven
 * by clients that also misuse the token (in the URL, as a session id, slightly wrong), has every
 * line it printed searched for it; a bad token setting is refused without echoing it; and the
 * platform module's issued access tokens stay out of its errors and logs even when the platform
 * echoes requests back. (Client secret and API key: packages/platform/test/secrets.test.ts.)
 */

// Visible ASCII with the characters that JSON and URLs escape, so every written form is checked.
const TOKEN = 'svc-token-"quoted"/slash\\back%pct-' + 'Z'.repeat(24);
/** The scraper's token for /metrics (SVC_DOCS_METRICS_TOKEN): a secret too. */
const METRICS_TOKEN = 'metrics-token-<angle>&amp;' + 'M'.repeat(24);

let index: string;
beforeAll(async () => {
  index = await fixtureIndex(SAMPLE_CORPUS);
});

/** HTTP Basic credentials with `password` (how a browser sends the token to the search page). */
function basic(password: string): string {
  return `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;
}

/** The token in every form a log line could carry it. */
function forms(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURI(secret),
    secret.slice(-24),
  ];
}

describe('the auth token never reaches the logs of a server run', () => {
  it('a whole serve run with a token, clients misusing it, and shutdown: no line carries it', {
    timeout: 180_000,
  }, async () => {
    const server = await startServe(
      ['--no-build', '--port', '0', '--index', index],
      cliEnv({ SVC_DOCS_AUTH_TOKEN: TOKEN, SVC_DOCS_METRICS_TOKEN: METRICS_TOKEN }),
    );
    let run = { code: null as number | null, stdout: '', stderr: '' };
    try {
      const listening = JSON.parse(linesOf(server.stdout()).find((l) => l.includes('"event":"listening"'))!) as {
        auth: boolean;
      };
      expect(listening.auth).toBe(true);
      const url = server.url;
      const base = url.replace(/\/docs$/, '');
      const auth = { authorization: `Bearer ${TOKEN}` };

      // Proper use, including the token as a search term (logged and recorded, redacted, on loopback).
      const { client, transport, close } = await connectClient(url, auth);
      const result = (await client.callTool({
        name: 'SearchDocs',
        arguments: { searchTerm: `webhook ${TOKEN}` },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      await transport.terminateSession();
      await close();

      // Misuse: near misses, the token in the URL, as a session id, in other headers and bodies.
      const session = await openRawSession(url, auth);
      const misuse: [string, string, Record<string, string>, string?][] = [
        [url, 'POST', { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}x` }, initializeBody()],
        [url, 'POST', { ...MCP_HEADERS, authorization: `Bearer ${TOKEN.slice(0, -1)}` }, initializeBody()],
        [url, 'POST', { ...MCP_HEADERS, authorization: TOKEN }, initializeBody()],
        [`${url}?access_token=${encodeURIComponent(TOKEN)}`, 'POST', { ...MCP_HEADERS }, initializeBody()],
        [`${base}/docs/${encodeURIComponent(TOKEN)}`, 'GET', auth],
        [`${base}/${encodeURIComponent(TOKEN)}`, 'GET', {}],
        [
          url,
          'POST',
          { ...sessionHeaders(TOKEN), ...auth },
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        ],
        [url, 'POST', { ...sessionHeaders(session), ...auth }, `{"jsonrpc":"2.0","id":1,"method":"${TOKEN}"`],
        [url, 'POST', { ...sessionHeaders(session), ...auth, 'content-type': 'text/plain' }, TOKEN],
        [
          url,
          'POST',
          { ...sessionHeaders(session), ...auth, 'mcp-protocol-version': TOKEN },
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        ],
        [url, 'POST', { ...sessionHeaders(session), ...auth, 'content-encoding': 'gzip' }, TOKEN],
        [`${base}/readyz`, 'GET', auth],
        [`${base}/metrics`, 'GET', { authorization: `Bearer ${METRICS_TOKEN}` }],
        [`${base}/metrics`, 'GET', { authorization: `Bearer ${METRICS_TOKEN}x` }],
        [`${base}/metrics/${encodeURIComponent(METRICS_TOKEN)}`, 'GET', {}],
        [`${base}/?q=${encodeURIComponent(TOKEN)}`, 'GET', { authorization: basic(TOKEN) }],
        [`${base}/`, 'GET', { authorization: basic(`${TOKEN}x`) }],
      ];
      const statuses: number[] = [];
      for (const [target, method, headers, body] of misuse)
        statuses.push((await send(target, method, headers, body)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 404, 404, 404, 400, 415, 400, 400, 200, 200, 401, 404, 200, 401]);
      expect((await send(url, 'DELETE', { ...sessionHeaders(session), ...auth })).status).toBe(200);
    } finally {
      run = await server.stop();
    }
    expect(run.code).toBe(0);

    const everything = `${run.stdout}\n${run.stderr}`;
    // The run did log: one line per request at least, the ready entry, and the search (its term redacted).
    expect(linesOf(run.stdout).filter((l) => l.includes('"method"')).length).toBeGreaterThanOrEqual(15);
    expect(run.stdout).toMatch(/"event":"ready","message":"svc-docs is serving MCP at/);
    expect(run.stdout).toContain('"term":"webhook [redacted]"');
    // The query store kept the search, its term redacted too.
    const stored = readFileSync(join(index, 'queries.jsonl'), 'utf8');
    expect(stored).toContain('"term":"webhook [redacted]"');
    for (const form of [...forms(TOKEN), ...forms(METRICS_TOKEN)]) {
      expect(everything).not.toContain(form);
      expect(stored).not.toContain(form);
    }
    expect(everything).toContain('[redacted]');
  });

  it('a token the configuration refuses is not echoed in the error', async () => {
    for (const bad of ['short-Secret-1', 'long enough but has spaces in it 0123456789']) {
      for (const how of ['env', 'flag'] as const) {
        const run = await runCli(
          ['serve', '--no-build', '--index', index, '--port', '0', ...(how === 'flag' ? ['--auth-token', bad] : [])],
          {
            env: how === 'env' ? { SVC_DOCS_AUTH_TOKEN: bad } : {},
            timeoutMs: 90_000,
          },
        );
        expect(run.code).toBe(1);
        const lines = linesOf(run.stderr);
        expect(lines).toEqual([
          expect.stringMatching(/^svc-docs: invalid server setting authToken \(SVC_DOCS_AUTH_TOKEN\): /),
        ]);
        expect(run.stdout + run.stderr).not.toContain(bad);
      }
    }
  });
});

describe('a token setting the server cannot use is refused in one line (issue 35)', () => {
  it('a token of 9,000 characters is refused without echoing it; it crashed the server, printing a regex that spelled it', async () => {
    const long = `Long-${'k'.repeat(9000)}`;
    const run = await runCli(['serve', '--no-build', '--index', index, '--port', '0'], {
      env: { SVC_DOCS_AUTH_TOKEN: long },
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      expect.stringMatching(/^svc-docs: invalid server setting authToken \(SVC_DOCS_AUTH_TOKEN\): is too long/),
    ]);
    expect(run.stdout + run.stderr).not.toContain('kkkkkkkkkkkkkkkk');
  });

  it('a FIFO or a folder as the token file is refused at once, naming the file; a FIFO hung the server with no word', async () => {
    const dir = tempDir('token');
    const fifo = join(dir, 'token.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const path of [fifo, dir]) {
      const run = await runCli(['serve', '--no-build', '--index', index, '--port', '0', '--auth-token-file', path], {
        timeoutMs: 60_000,
      });
      expect([run.code, run.signal]).toEqual([1, null]);
      expect(linesOf(run.stderr)).toEqual([
        `svc-docs: --auth-token-file: the token file ${path} is not a regular file (a FIFO, socket, device or folder): put the token in a file`,
      ]);
    }
  });
});

describe('OAuth access tokens never reach the logs of a server run', () => {
  it('a serve run in OAuth mode (settings from the environment), good and bad tokens, misuse: no line carries one', {
    timeout: 180_000,
  }, async () => {
    const resource = 'http://localhost/docs';
    const issuer = await startFakeIssuer({ audience: resource });
    const server = await startServe(
      ['--no-build', '--port', '0', '--index', index],
      cliEnv({
        SVC_DOCS_OAUTH_ISSUER: issuer.issuer,
        SVC_DOCS_OAUTH_JWKS_URL: issuer.jwksUrl,
        SVC_DOCS_OAUTH_RESOURCE: resource,
      }),
    );
    let run = { code: null as number | null, stdout: '', stderr: '' };
    try {
      // The address it listens on: its ready entry names the OAuth resource URL clients are told.
      const listening = linesOf(server.stdout()).find((l) => l.includes('"event":"listening"'))!;
      const { url } = JSON.parse(listening) as { url: string };
      const good = await issuer.mint();
      const { client, transport, close } = await connectClient(url, { authorization: `Bearer ${good}` });
      expect(
        (
          (await client.callTool({
            name: 'SearchDocs',
            arguments: { searchTerm: `webhook ${good}` },
          })) as CallToolResult
        ).isError,
      ).toBeFalsy();
      await transport.terminateSession();
      await close();
      const now = Math.floor(Date.now() / 1000);
      const bad = [
        await issuer.mint({ exp: now - 60 }),
        await issuer.mint({ aud: 'https://other.example/docs' }),
        await issuer.mint({ scope: 'docs:write' }),
        issuer.unsigned(),
        await issuer.foreignKey(),
      ];
      const statuses: number[] = [];
      for (const token of bad)
        statuses.push(
          (await send(url, 'POST', { ...MCP_HEADERS, authorization: `Bearer ${token}` }, initializeBody())).status,
        );
      statuses.push((await send(`${url}?access_token=${good}`, 'POST', { ...MCP_HEADERS }, initializeBody())).status);
      statuses.push(
        (
          await send(
            url,
            'POST',
            { ...sessionHeaders(good), authorization: `Bearer ${good}` },
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          )
        ).status,
      );
      expect(statuses).toEqual([401, 401, 403, 401, 401, 401, 404]);
    } finally {
      run = await server.stop();
      await issuer.close();
    }
    expect(run.code).toBe(0);
    const everything = `${run.stdout}\n${run.stderr}`;
    expect(everything).toContain('"token-refused"');
    expect(issuer.minted.size).toBe(6);
    const stored = readFileSync(join(index, 'queries.jsonl'), 'utf8');
    for (const token of issuer.minted) {
      for (const text of [everything, stored]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(token.split('.')[1]!);
      }
    }
  });
});

describe('platform: issued access tokens never reach errors or logs', () => {
  let fake: FakePlatform;
  beforeAll(async () => {
    fake = await startFakePlatform({ sendExpiresIn: true });
  });
  afterAll(() => fake.close());

  /** An API that answers `status` and echoes the whole request, headers included, as some proxies do. */
  const echoing =
    (status: number): FetchLike =>
    async (_input, init) =>
      new Response(`rejected: ${String(init.body)} headers: ${JSON.stringify(init.headers)}`, { status });

  it('a platform run with token refreshes, 401s and an echoing API leaks no access token', async () => {
    const entries: PlatformLogEntry[] = [];
    const consoleLines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      consoleLines.push(args.map(String).join(' '));
    });
    const exposed: string[] = [];
    const issued = new Set<string>();
    try {
      const tokens = new TokenManager({
        baseUrl: fake.url,
        clientId: fake.appId,
        clientSecret: fake.clientSecret,
        retryBaseDelayMs: 1,
        maxAttempts: 3,
        logger: (entry) => entries.push(entry),
      });
      const instances = [fake.addInstallation(), fake.addInstallation(), fake.addInstallation()];
      for (const instanceId of instances) {
        issued.add(await tokens.getToken(instanceId));
        await queryWallets({ baseUrl: fake.url, tokens, instanceId });
      }
      // Every token revoked: each call refreshes once (new tokens issued), then works.
      fake.expireTokens();
      for (const instanceId of instances) {
        await queryWallets({ baseUrl: fake.url, tokens, instanceId });
        issued.add(await tokens.getToken(instanceId));
      }
      // Token endpoint failing, then recovering: retries are logged.
      fake.failTokenRequests(2, 503);
      fake.expireTokens();
      await queryWallets({ baseUrl: fake.url, tokens, instanceId: instances[0]! });
      issued.add(await tokens.getToken(instances[0]!));
      // An API that echoes the Authorization header back in its error body, on 500 and on 401.
      for (const status of [500, 401]) {
        try {
          await queryWallets({ baseUrl: fake.url, tokens, instanceId: instances[1]!, fetch: echoing(status) });
          throw new Error('expected the call to fail');
        } catch (error) {
          exposed.push(
            error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error),
            inspect(error, { depth: 10 }),
            JSON.stringify(error),
          );
        }
        issued.add(await tokens.getToken(instances[1]!));
      }
      exposed.push(inspect(tokens, { depth: 10, showHidden: true }), JSON.stringify(tokens));
    } finally {
      spy.mockRestore();
    }
    exposed.push(...entries.map((e) => JSON.stringify(e)), ...consoleLines);
    expect(issued.size).toBeGreaterThanOrEqual(6);
    expect(entries.some((e) => e.level === 'warn')).toBe(true);
    const everything = exposed.join('\n');
    // The echo really carried a token: redaction is what kept it out.
    expect(everything).toContain('[redacted]');
    for (const token of issued) expect(everything).not.toContain(token);
    expect(everything).not.toContain(fake.clientSecret);
  });
});
