import { afterEach, describe, expect, it } from 'vitest';
import { pageUri } from '../../src/mcp/tools/page-uri.js';
import type { PageIndex } from '../../src/mcp/tools/pages.js';
import { openEngine } from '../../src/search/engine.js';
import { fixtureIndex } from '../helpers/index-fixture.js';
import { envelope, MCP_HEADERS, MODERN_VERSION, modernRequest, openRawSession, raw } from '../helpers/mcp-client.js';
import { useServedEngine } from '../helpers/served-engine.js';
import { rawConnection, waitFor, type RawConnection } from './helpers.js';

/**
 * Issue 35, finding 2: unread responses pinned session-less exchanges forever (with the cap at 5,
 * five unread responses made every 2026-07-28 call 503 for over 70 s, each holding megabytes).
 * Now an exchange whose response waits on a client that does not read no longer counts against
 * the cap, and after the write timeout its connection is closed and what it held is freed.
 */

/**
 * A page of 12 MB, read whole (the page budget raised above it): its answer is more than the
 * kernel's socket buffers take (about 4 MB on loopback here), so the server must hold the rest
 * for the reader. The indexer refuses files over 1 MiB by default and takes about 16 s to index
 * a 6 MB one, so the page is given to the server as its page index; searches use a real index.
 */
const SECTIONS = 4800;
const BIG_PAGES: PageIndex = {
  documents: [{ kb: 'ref', path: 'big.md', title: 'Big', firstSection: 0, sectionCount: SECTIONS }],
  sections: Array.from({ length: SECTIONS }, (_, i) => ({
    text: `## Part ${i}\n\n${'lorem ipsum dolor '.repeat(140)}`,
  })),
};
const uri = pageUri('ref', 'big.md');

const { serve } = useServedEngine(async () =>
  openEngine(await fixtureIndex({ 'ref/small.md': '# Small\n\nA short page about quokkas.\n' })),
);
const connections: RawConnection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.socket.destroy();
});

/** The raw HTTP of a resources/read of the big page: 2026-07-28, or 2025 without a session. */
function readRequest(port: number, era: 'modern' | 'legacy'): string {
  const message =
    era === 'modern'
      ? { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri, _meta: envelope() } }
      : { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } };
  const body = JSON.stringify(message);
  const modernHeaders =
    era === 'modern'
      ? `Mcp-Protocol-Version: ${MODERN_VERSION}\r\nMcp-Method: resources/read\r\nMcp-Name: ${uri}\r\n`
      : '';
  return (
    `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `${modernHeaders}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Five clients that ask for the big page and never read a byte of the answer. */
async function fiveNonReaders(port: number, era: 'modern' | 'legacy'): Promise<RawConnection[]> {
  const opened: RawConnection[] = [];
  for (let i = 0; i < 5; i++) {
    const conn = await rawConnection(port);
    conn.socket.pause();
    conn.socket.write(readRequest(port, era));
    connections.push(conn);
    opened.push(conn);
  }
  return opened;
}

/** What the server logged as cut off for want of a reader. */
function writeTimeouts(lines: string[]): number {
  return lines.filter((l) => (JSON.parse(l) as { event?: string }).event === 'write-timeout').length;
}

/** Once the client looks again, its connection is over, with less than the whole answer received. */
async function cutOff(conn: RawConnection): Promise<void> {
  conn.socket.resume();
  await waitFor('the connection to end', () => conn.isClosed(), 20_000);
  expect(conn.received().length).toBeLessThan(BIG_PAGES.sections.length * 2500);
}

describe('unread responses', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`do not hold the session-less cap (${era === 'modern' ? '2026-07-28' : '2025 without a session'}), and are cut off after the write timeout`, async () => {
      const server = await serve({
        maxSessions: 5,
        pageBudgetChars: 20_000_000,
        pages: () => BIG_PAGES,
        writeTimeoutMs: 4000,
      });
      const stuck = await fiveNonReaders(server.port, era);
      // A sixth client is served while the five still wait for their readers (before the timeout).
      await waitFor('a sixth client to be served', async () => {
        const list = await raw(server.url, modernRequest('tools/list'));
        return list.status === 200;
      });
      expect(writeTimeouts(server.lines)).toBe(0);
      // The server gives up on them after the write timeout, freeing what their answers held.
      await waitFor('the server to cut off the five', () => writeTimeouts(server.lines) === 5, 20_000);
      for (const conn of stuck) await cutOff(conn);
      expect((await raw(server.url, modernRequest('tools/list'))).status).toBe(200);
    });
  }

  it('cuts off an unread answer in a 2025 session too, and the session stays usable', async () => {
    const server = await serve({ pageBudgetChars: 20_000_000, pages: () => BIG_PAGES, writeTimeoutMs: 1000 });
    const session = await openRawSession(server.url);
    const conn = await rawConnection(server.port);
    connections.push(conn);
    conn.socket.pause();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri } });
    conn.socket.write(
      `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await waitFor('the server to cut off the unread answer', () => writeTimeouts(server.lines) === 1, 20_000);
    await cutOff(conn);
    const list = await raw(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
  });
});
