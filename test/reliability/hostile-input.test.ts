import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine } from '../../src/mcp/render/one-line.js';
import { startHttpServer, type RunningServer } from '../../src/serve/http-server.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchEngine } from '../../src/search/types.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { messagesOf, openRawSession, sessionHeaders } from '../helpers/mcp-client.js';
import { send, statusLine, type HttpAnswer } from './helpers.js';
import { type Expected, MAX_BODY, post, type Row, searchFor, TOKEN } from './hostile-requests.js';
import { HTTP_ROWS, TOKEN_ROWS } from './hostile-rows-http.js';
import { PROTOCOL_ROWS } from './hostile-rows-protocol.js';

/**
 * What each hostile or malformed input gets, as a table: every row is answered with a clear
 * error (or, for odd but valid search terms, a normal answer), and after every row the server
 * is healthy, has logged no server error, and still serves a real search. Status codes that
 * test/mcp/http/http.test.ts already pins (plain malformed JSON, 413, 415, unknown session, foreign
 * Origin/Host, missing/wrong token) appear here only in variants it does not try.
 */

let engine: SearchEngine & { close(): Promise<void> };
let open: RunningServer & { lines: string[] };
let guarded: RunningServer & { lines: string[] };
/** Sessions the rows opened and left open, per server: the servers must hold exactly these. */
const leftOpen = { open: 0, guarded: 0 };

beforeAll(async () => {
  engine = await openEngine(sampleIndex());
  const start = async (extra: { authToken?: string }) => {
    const lines: string[] = [];
    const server = await startHttpServer({
      port: 0,
      engine: () => engine,
      maxBodyBytes: MAX_BODY,
      log: (l) => lines.push(l),
      ...extra,
    });
    return Object.assign(server, { lines });
  };
  open = await start({});
  guarded = await start({ authToken: TOKEN });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await engine?.close();
});

const ROWS: Row[] = [...PROTOCOL_ROWS, ...HTTP_ROWS];

function rpcErrorOf(text: string): { code: number; message: string } {
  const parsed = JSON.parse(text) as { jsonrpc?: string; error?: { code: number; message: string } };
  if (parsed.jsonrpc !== '2.0' || parsed.error === undefined)
    throw new Error(`not a JSON-RPC error: ${text.slice(0, 300)}`);
  return parsed.error;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

function check(answer: HttpAnswer | string, expected: Expected): void {
  if (typeof answer === 'string') {
    // A raw exchange: the status line, then (for app answers) the JSON body.
    const status = Number(statusLine(answer).split(' ')[1]);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    if ('parser' in expected) {
      expect(status).toBe(expected.parser);
      return;
    }
    if (!('http' in expected)) throw new Error('raw rows expect a parser or an http refusal');
    expect(status).toBe(expected.http);
    const error = rpcErrorOf(body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, ''));
    expect(error.code).toBe(expected.code);
    expect(error.message).toMatch(expected.message);
    return;
  }
  if ('parser' in expected) throw new Error('parser rows use raw exchanges');
  if ('http' in expected) {
    expect(answer.status).toBe(expected.http);
    const error = rpcErrorOf(answer.text);
    expect(error.code).toBe(expected.code);
    expect(error.message).toMatch(expected.message);
    return;
  }
  if ('accepted' in expected) {
    expect(answer.status).toBe(202);
    return;
  }
  expect(answer.status).toBe(200);
  const messages = messagesOf(answer.text) as {
    id?: unknown;
    result?: ToolAnswer;
    error?: { code: number; message: string };
  }[];
  if ('batch' in expected) {
    expect(messages).toHaveLength(expected.batch);
    for (const m of messages) expect(m.result).toBeDefined();
    return;
  }
  expect(messages).toHaveLength(1);
  const [message] = messages;
  if ('rpcError' in expected) {
    expect(expected.rpcError).toContain(message!.error?.code);
    expect(message!.error?.message).toMatch(expected.message);
    return;
  }
  const result = message!.result!;
  if ('toolError' in expected) {
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(expected.toolError);
    return;
  }
  expect(result.isError).toBeFalsy();
  expect(result.content[0]?.text).toMatch(
    /^((Found )?\d+ results? for|No documentation matched|The documentation does not seem to cover)/,
  );
  // Every answer names the query as the server read it, on one line (render.ts, not-covered.ts).
  if (expected.query !== undefined) expect(result.content[0]?.text).toContain(JSON.stringify(oneLine(expected.query)));
}

/** After every row: alive, no server error logged, and a search in a new session still works. */
async function expectHealthy(
  server: RunningServer & { lines: string[] },
  headers: Record<string, string> = {},
): Promise<void> {
  expect((await send(server.url.replace(/\/docs$/, '/healthz'), 'GET', {})).status).toBe(200);
  const events = server.lines.map((l) => JSON.parse(l) as { level?: string; status?: number });
  expect(events.filter((e) => e.level === 'error' || (e.status ?? 0) >= 500)).toEqual([]);
  const session = await openRawSession(server.url, headers);
  const answer = await post(server.url, session, searchFor('verify webhook signature'), headers);
  check(answer, { answered: true });
  expect((await send(server.url, 'DELETE', { ...sessionHeaders(session), ...headers })).status).toBe(200);
}

describe('hostile and malformed input: each gets a clear answer, and the server carries on', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const session = await openRawSession(open.url);
    leftOpen.open++;
    check(await row.send({ url: open.url, port: open.port, session }), row.expect);
    await expectHealthy(open);
    // Nothing leaked onto Object.prototype from any key of any body.
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(TOKEN_ROWS.map((row) => [row.name, row] as const))('with a token configured: %s', async (_name, row) => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const session = await openRawSession(guarded.url, auth);
    leftOpen.guarded++;
    check(await row.send({ url: guarded.url, port: guarded.port, session }), row.expect);
    await expectHealthy(guarded, auth);
    // A refused request must not leak the token into the log, whatever it carried.
    expect(guarded.lines.join('\n')).not.toContain(TOKEN.slice(0, 24));
  });

  it('opened no session for any refused initialize, and holds only the ones still open', () => {
    // Every row's own session is still open (rows never close them), and none came from refusals.
    expect(open.sessionCount()).toBe(leftOpen.open);
    expect(guarded.sessionCount()).toBe(leftOpen.guarded);
  });
});
