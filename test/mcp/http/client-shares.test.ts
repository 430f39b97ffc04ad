import { type ClientRequest, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/search/engine.js';
import { bundledIndex } from '../../helpers/index-fixture.js';
import { modernRequest, openRawSession, type RawRequest, raw, sessionHeaders } from '../../helpers/mcp-client.js';
import { useServedEngine } from '../../helpers/served-engine.js';

/**
 * One client's share covers everything it holds open (issue 40, findings 3 and 4): requests
 * running, server-to-client streams and the search page's requests count together against
 * SVC_DOCS_MAX_REQUESTS_PER_CLIENT, streams at most half of it; a `subscriptions/listen` stream
 * is not held open (the server promises no list changes).
 */

const { serve } = useServedEngine(() => openEngine(bundledIndex()));

const held: ClientRequest[] = [];
afterEach(() => {
  for (const req of held.splice(0)) req.destroy();
});

/** Sends a request and keeps its connection open until the test ends; resolves with its status and whether the answer ended. */
function hold(
  url: string,
  { method, headers = {}, body }: RawRequest,
): Promise<{ status: number; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, agent: false, headers: { ...headers, ...length } });
    held.push(req);
    req.on('response', (res) => {
      const ended = new Promise<void>((done) => res.on('end', done));
      res.resume();
      resolve({ status: res.statusCode ?? 0, ended });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pageOf = (url: string) => url.replace(/\/docs$/, '/');

describe("a client's share", () => {
  it('counts its streams (at most half the share) and its search page requests with its requests', async () => {
    const server = await serve({ maxRequestsPerClient: 2 });
    const sessions = [await openRawSession(server.url), await openRawSession(server.url)];
    const stream = (id: string) => hold(server.url, { method: 'GET', headers: sessionHeaders(id) });
    expect((await stream(sessions[0]!)).status).toBe(200);
    const second = await raw(server.url, { method: 'GET', headers: sessionHeaders(sessions[1]!) });
    expect(second.status).toBe(429);
    expect(second.text).toContain('this client already has 1 streams open');
    // One stream held, one of two places left: the page is served, and its place freed after.
    for (let i = 0; i < 2; i++) expect((await raw(pageOf(server.url), { method: 'GET' })).status).toBe(200);
  });

  it('refuses the search page past the share, with Retry-After', async () => {
    const server = await serve({ maxRequestsPerClient: 1 });
    const id = await openRawSession(server.url);
    expect((await hold(server.url, { method: 'GET', headers: sessionHeaders(id) })).status).toBe(200);
    const page = await raw(pageOf(server.url), { method: 'GET' });
    expect(page.status).toBe(429);
    expect(page.headers['retry-after']).toBe('1');
  });

  it('does not hold a subscriptions/listen stream open: five from one client each end at once', async () => {
    const server = await serve({ maxRequestsPerClient: 3 });
    const listen = modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } });
    for (let i = 0; i < 5; i++) {
      const stream = await hold(server.url, listen);
      expect(stream.status).toBe(200);
      await stream.ended;
    }
  });
});
