import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/serve/http-server.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchEngine } from '../../src/search/types.js';
import { sampleIndex } from '../helpers/index-fixture.js';
import { initializeBody, MCP_HEADERS, messagesOf, openRawSession, sessionHeaders } from '../helpers/mcp-client.js';
import { rawExchange, send, statusLine, type HttpAnswer } from './helpers.js';

/**
 * What each hostile or malformed input gets, as a table: every row is answered with a clear
 * error (or, for odd but valid search terms, a normal answer), and after every row the server
 * is healthy, has logged no server error, and still serves a real search. Status codes that
 * test/mcp/http/http.test.ts already pins (plain malformed JSON, 413, 415, unknown session, foreign
 * Origin/Host, missing/wrong token) appear here only in variants it does not try.
 */

/** What a row must get. */
type Expected =
  /** An HTTP-level refusal with a JSON-RPC error body. */
  | { http: number; code: number; message: RegExp }
  /** Refused by Node's HTTP parser before the app sees it: a status line and no JSON. */
  | { parser: number }
  /** 200 with a JSON-RPC error response for the request. */
  | { rpcError: number[]; message: RegExp }
  /** 200 with a SearchDocs tool error (isError) that says what is wrong. */
  | { toolError: RegExp }
  /** 200 with a normal SearchDocs answer (results, "not covered", or "No documentation matched"). */
  | { answered: true; query?: string }
  /** 200 with one JSON-RPC response per request of a batch. */
  | { batch: number }
  /** 202: accepted, nothing to answer (a notification or a response). */
  | { accepted: true };

interface Row {
  name: string;
  /** The request: `session` is a fresh session id, `port` the server's. */
  send: (ctx: { url: string; port: number; session: string }) => Promise<HttpAnswer | string>;
  expect: Expected;
}

const MAX_BODY = 2 * 1024 * 1024;
const TOKEN = 'reliability-token-' + 'k'.repeat(32);

let engine: SearchEngine & { close(): Promise<void> };
let open: RunningServer & { lines: string[] };
let guarded: RunningServer & { lines: string[] };
/** Sessions the rows opened and left open, per server: the servers must hold exactly these. */
const leftOpen = { open: 0, guarded: 0 };

beforeAll(async () => {
  engine = await openEngine(sampleIndex());
  const start = async (extra: { authToken?: string }) => {
    const lines: string[] = [];
    // Structured output on: the checks below read the query back from the structured copy.
    const server = await startHttpServer({
      port: 0,
      engine: () => engine,
      maxBodyBytes: MAX_BODY,
      structuredOutput: true,
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

const post = (url: string, session: string | undefined, body: string | Buffer, headers: Record<string, string> = {}) =>
  send(url, 'POST', { ...(session === undefined ? MCP_HEADERS : sessionHeaders(session)), ...headers }, body);

const call = (args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'SearchDocs', arguments: args } });
const searchFor = (term: string) => call({ searchTerm: term });
const inSession =
  (body: string | Buffer, headers: Record<string, string> = {}) =>
  ({ url, session }: { url: string; session: string }) =>
    post(url, session, body, headers);

/** The request line and headers of a raw POST in a session, for rows Node's client would refuse to send. */
const rawHead = (port: number, session: string, extra = '') =>
  `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
  `Mcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\nConnection: close\r\n${extra}`;

const REGEX_METACHARACTERS = '.*+?^${}()|[]\\ (a+)+$ ((((( [[[ \\\\ ** ?? (?=x) (?<n>y) \\p{L}';
const QUERY_SYNTAX =
  'title:webhooks AND -signature OR "exact phrase" ~2 ^3 * NOT (a OR b) {c} path:/etc/passwd kb:* 1..10';
const BINARY = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');

const ROWS: Row[] = [
  // --- JSON and JSON-RPC framing -----------------------------------------------------------
  {
    name: 'malformed JSON inside a session',
    send: inSession('{"jsonrpc":"2.0","id":1,"method":"tools/list"'),
    expect: { http: 400, code: -32700, message: /^Parse error/ },
  },
  {
    name: 'JSON with a trailing comma',
    send: inSession('{"jsonrpc":"2.0","id":1,"method":"tools/list",}'),
    expect: { http: 400, code: -32700, message: /^Parse error/ },
  },
  {
    name: 'an empty body',
    send: inSession(''),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'JSON null',
    send: inSession('null'),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'a bare JSON number',
    send: inSession('42'),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'a bare JSON string',
    send: inSession('"tools/list"'),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'JSON-RPC version 1.0',
    send: inSession(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' })),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'no jsonrpc member',
    send: inSession(JSON.stringify({ id: 1, method: 'tools/list' })),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'an extra top-level member',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', admin: true })),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'an object as request id',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: { $gt: '' }, method: 'tools/list' })),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },
  {
    name: 'a JSON-RPC batch of two requests (answered per message, as protocol 2025-03-26 allows)',
    send: inSession(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    ),
    expect: { batch: 2 },
  },
  {
    name: 'an empty JSON-RPC batch',
    send: inSession('[]'),
    expect: { http: 400, code: -32600, message: /batch is empty/ },
  },
  {
    name: 'a batch of non-messages',
    send: inSession('[1, "two", null]'),
    expect: { http: 400, code: -32600, message: /batch contains an invalid message/ },
  },
  {
    name: 'a batch of 17 messages',
    send: inSession(JSON.stringify(Array.from({ length: 17 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })))),
    expect: { http: 400, code: -32600, message: /batch holds at most 16 messages/ },
  },
  {
    name: 'a batch smuggling a second initialize without a session',
    send: ({ url }) =>
      post(
        url,
        undefined,
        `[${initializeBody(1)}, ${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}]`,
      ),
    expect: { http: 400, code: -32600, message: /Only one initialization request/ },
  },
  {
    name: 'initialize again inside a session',
    send: inSession(initializeBody(9)),
    expect: { http: 400, code: -32600, message: /already initialized/ },
  },
  {
    name: 'an unknown method',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin/shutdown' })),
    expect: { rpcError: [-32601], message: /Method not found/ },
  },
  {
    name: 'an unknown tool',
    send: inSession(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ExecShell', arguments: {} } }),
    ),
    expect: { rpcError: [-32602], message: /Tool ExecShell not found/ },
  },
  // One line saying what the method takes, not the validator's dump (issue 35).
  {
    name: 'tool arguments that are null',
    send: inSession(call(null)),
    expect: {
      rpcError: [-32602],
      message: /^Invalid params: tools\/call takes .*arguments an object such as [^\n]*\.$/,
    },
  },
  {
    name: 'tool arguments that are an array',
    send: inSession(call(['webhooks'])),
    expect: {
      rpcError: [-32602],
      message: /^Invalid params: tools\/call takes .*arguments an object such as [^\n]*\.$/,
    },
  },
  {
    name: 'tool arguments that are a string',
    send: inSession(call('webhooks')),
    expect: {
      rpcError: [-32602],
      message: /^Invalid params: tools\/call takes .*arguments an object such as [^\n]*\.$/,
    },
  },
  {
    name: 'logging/setLevel with an unknown level',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } })),
    expect: {
      rpcError: [-32602],
      message: /^Invalid params: logging\/setLevel takes \{"level": …\}, one of debug, [^\n]*emergency\.$/,
    },
  },
  {
    name: 'logging/setLevel without params',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel' })),
    expect: { rpcError: [-32602], message: /^Invalid params: logging\/setLevel takes/ },
  },
  {
    name: 'JSON nested 5,000 levels deep (issue 35: was 500)',
    send: inSession(`{"jsonrpc":"2.0","id":1,"method":"ping","params":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`),
    expect: { http: 400, code: -32600, message: /nests more than 64 levels deep/ },
  },
  {
    name: 'a response to a request the server never sent',
    send: inSession(JSON.stringify({ jsonrpc: '2.0', id: 999, result: {} })),
    expect: { accepted: true },
  },

  // --- searchTerm -------------------------------------------------------------------------------
  { name: 'searchTerm empty', send: inSession(searchFor('')), expect: { toolError: /searchTerm is empty/ } },
  {
    name: 'searchTerm whitespace only',
    send: inSession(searchFor(' \t\n\u00a0\u2003 ')),
    expect: { toolError: /searchTerm is empty/ },
  },
  {
    name: 'searchTerm of 1 MB',
    send: inSession(searchFor('webhook '.repeat(131_072))),
    expect: { toolError: /longer than 1000 characters/ },
  },
  {
    name: 'searchTerm of exactly 1000 characters',
    send: inSession(searchFor('w'.repeat(1000))),
    expect: { answered: true },
  },
  {
    name: 'searchTerm of every byte value (binary)',
    send: inSession(searchFor(BINARY)),
    expect: { answered: true, query: BINARY.trim() },
  },
  {
    name: 'searchTerm with invalid UTF-8 bytes',
    send: inSession(
      Buffer.concat([
        Buffer.from(searchFor('webhookXX').split('XX')[0]!),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from(searchFor('webhookXX').split('XX')[1]!),
      ]),
    ),
    expect: { answered: true },
  },
  {
    name: 'searchTerm with lone UTF-16 surrogates',
    send: inSession(searchFor('webhook \ud800 signature \udfff')),
    expect: { answered: true },
  },
  {
    name: 'searchTerm full of regex metacharacters',
    send: inSession(searchFor(REGEX_METACHARACTERS)),
    expect: { answered: true, query: REGEX_METACHARACTERS },
  },
  {
    name: 'searchTerm full of query-syntax metacharacters',
    send: inSession(searchFor(QUERY_SYNTAX)),
    expect: { answered: true, query: QUERY_SYNTAX },
  },
  {
    name: 'searchTerm made of Object.prototype names',
    send: inSession(searchFor('__proto__ constructor prototype hasOwnProperty toString valueOf')),
    expect: { answered: true },
  },
  {
    name: 'searchTerm with markup and a script',
    send: inSession(searchFor('<script>alert(1)</script> <img src=x onerror=alert(1)>')),
    expect: { answered: true },
  },
  {
    name: 'searchTerm that is a number',
    send: inSession(call({ searchTerm: 42 })),
    expect: { toolError: /expected string/ },
  },
  {
    name: 'searchTerm that is an object',
    send: inSession(call({ searchTerm: { $regex: '.*' } })),
    expect: { toolError: /expected string/ },
  },
  {
    name: 'searchTerm that is null',
    send: inSession(call({ searchTerm: null })),
    expect: { toolError: /expected string/ },
  },
  {
    name: 'an extra argument raising the result limit',
    send: inSession(call({ searchTerm: 'webhooks', maxResults: 500 })),
    expect: { toolError: /Unrecognized key.*maxResults/ },
  },
  {
    name: 'a "__proto__" key among the arguments (dropped, never reaches the handler)',
    send: inSession(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"SearchDocs","arguments":{"searchTerm":"webhooks","__proto__":{"polluted":"yes","searchTerm":"x"}}}}',
    ),
    expect: { answered: true, query: 'webhooks' },
  },
  {
    name: 'searchTerm only inside "__proto__"',
    send: inSession(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"SearchDocs","arguments":{"__proto__":{"searchTerm":"webhooks"}}}}',
    ),
    expect: { toolError: /searchTerm/ },
  },
  {
    name: 'a "constructor.prototype" key among the arguments',
    send: inSession(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"SearchDocs","arguments":{"searchTerm":"x","constructor":{"prototype":{"polluted":"yes"}}}}}',
    ),
    expect: { toolError: /Unrecognized key.*constructor/ },
  },
  {
    name: 'a "__proto__" key as the whole message',
    send: inSession('{"__proto__":{"jsonrpc":"2.0","id":7,"method":"tools/list","polluted":"yes"}}'),
    expect: { http: 400, code: -32600, message: /not a valid JSON-RPC message/ },
  },

  // --- headers ----------------------------------------------------------------------------------
  {
    name: 'a session id with control characters',
    send: ({ port }) => rawExchange(port, `${rawHead(port, 'abc\x01\x7fdef')}Content-Length: 2\r\n\r\n{}`),
    expect: { parser: 400 },
  },
  {
    name: 'a session id with a NUL byte',
    send: ({ port }) => rawExchange(port, `${rawHead(port, 'abc\x00def')}Content-Length: 2\r\n\r\n{}`),
    expect: { parser: 400 },
  },
  {
    name: 'a session id of 10 KB',
    send: ({ url }) => post(url, 'S'.repeat(10_240), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
    expect: { http: 404, code: -32001, message: /Session not found/ },
  },
  {
    name: 'a session id with non-ASCII bytes',
    send: ({ port }) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      return rawExchange(
        port,
        Buffer.from(`${rawHead(port, 'abc\xe9\xffdef')}Content-Length: ${body.length}\r\n\r\n${body}`, 'latin1'),
      );
    },
    expect: { http: 404, code: -32001, message: /Session not found/ },
  },
  {
    name: 'headers over 16 KB',
    send: ({ port }) =>
      rawExchange(port, `${rawHead(port, 'x')}X-Pad: ${'p'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`),
    expect: { parser: 431 },
  },
  {
    name: 'both Content-Length and Transfer-Encoding (request smuggling)',
    send: ({ port, session }) =>
      rawExchange(port, `${rawHead(port, session)}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
    expect: { parser: 400 },
  },
  {
    name: "another session's id after that session was deleted",
    send: async ({ url }) => {
      const other = await openRawSession(url);
      const del = await send(url, 'DELETE', sessionHeaders(other));
      if (del.status !== 200) throw new Error(`DELETE answered ${del.status}`);
      // The caller's own session is alive; the deleted one must stay dead for every method.
      for (const method of ['GET', 'DELETE']) {
        const again = await send(url, method, { ...sessionHeaders(other), accept: 'text/event-stream' });
        if (again.status !== 404) throw new Error(`${method} with a deleted session answered ${again.status}`);
      }
      return post(url, other, searchFor('webhooks'));
    },
    expect: { http: 404, code: -32001, message: /Session not found/ },
  },
  {
    name: 'Origin "null" (sandboxed iframe, file://)',
    send: inSession(searchFor('webhooks'), { origin: 'null' }),
    expect: { http: 403, code: -32000, message: /Origin null is not allowed/ },
  },
  {
    name: 'Origin localhost.evil.example',
    send: inSession(searchFor('webhooks'), { origin: 'http://localhost.evil.example' }),
    expect: { http: 403, code: -32000, message: /is not allowed/ },
  },
  {
    name: 'Origin 127.0.0.1.nip.io',
    send: inSession(searchFor('webhooks'), { origin: 'http://127.0.0.1.nip.io:8080' }),
    expect: { http: 403, code: -32000, message: /is not allowed/ },
  },
  {
    name: 'Origin that is not a URL',
    send: inSession(searchFor('webhooks'), { origin: 'javascript:alert(1)//' }),
    expect: { http: 403, code: -32000, message: /is not allowed/ },
  },
  {
    name: 'Host localhost.evil.example',
    send: inSession(searchFor('webhooks'), { host: 'localhost.evil.example' }),
    expect: { http: 403, code: -32000, message: /Host localhost\.evil\.example is not allowed/ },
  },
  {
    name: 'Host with userinfo (localhost@evil)',
    send: inSession(searchFor('webhooks'), { host: 'localhost:80@evil.example' }),
    expect: { http: 403, code: -32000, message: /is not allowed/ },
  },
  {
    name: 'Host 127.0.0.1.nip.io',
    send: inSession(searchFor('webhooks'), { host: '127.0.0.1.nip.io' }),
    expect: { http: 403, code: -32000, message: /is not allowed/ },
  },
  {
    name: 'an empty Host',
    send: ({ port, session }) => {
      const body = searchFor('webhooks');
      return rawExchange(
        port,
        `${rawHead(port, session).replace(/^Host: .*\r\n/m, 'Host: \r\n')}Content-Length: ${body.length}\r\n\r\n${body}`,
      );
    },
    expect: { http: 403, code: -32000, message: /Host {2}is not allowed|Host \(none\) is not allowed/ },
  },

  // --- bodies -----------------------------------------------------------------------------------
  {
    name: 'a body over the limit (3 MB, Content-Length)',
    send: inSession(searchFor('w'.repeat(3 * 1024 * 1024))),
    expect: { http: 413, code: -32000, message: /over 2097152 bytes/ },
  },
  {
    name: 'a chunked body over the limit (no Content-Length)',
    send: ({ port, session }) =>
      rawExchange(
        port,
        `${rawHead(port, session)}Transfer-Encoding: chunked\r\n\r\n${Array.from({ length: 300 }, () => `2000\r\n${'a'.repeat(0x2000)}\r\n`).join('')}0\r\n\r\n`,
      ),
    expect: { http: 413, code: -32000, message: /over 2097152 bytes/ },
  },
  {
    name: 'a gzip bomb (10 KB inflating to 50 MB)',
    send: inSession(gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)), { 'content-encoding': 'gzip' }),
    expect: { http: 413, code: -32000, message: /over 2097152 bytes/ },
  },
  {
    name: 'a gzip body that does not inflate',
    send: inSession('definitely not gzip', { 'content-encoding': 'gzip' }),
    expect: { http: 400, code: -32000, message: /could not be read/ },
  },
  {
    name: 'a brotli body that does not inflate',
    send: inSession('definitely not brotli', { 'content-encoding': 'br' }),
    expect: { http: 400, code: -32000, message: /could not be read/ },
  },
  {
    name: 'an unknown Content-Encoding',
    send: inSession(searchFor('webhooks'), { 'content-encoding': 'x-evil' }),
    expect: { http: 415, code: -32000, message: /unsupported content encoding/ },
  },
  {
    name: 'a UTF-16 charset on UTF-8 bytes',
    send: inSession(searchFor('webhooks'), { 'content-type': 'application/json; charset=utf-16' }),
    expect: { http: 400, code: -32700, message: /Parse error/ },
  },
  {
    name: 'an unsupported charset',
    send: inSession(searchFor('webhooks'), { 'content-type': 'application/json; charset=x-evil' }),
    expect: { http: 415, code: -32000, message: /unsupported charset/ },
  },
];

/** Token rows run against the server started with a token; each gets a fresh session opened with it. */
const TOKEN_ROWS: Row[] = [
  {
    name: 'no Authorization header, with a valid session id',
    send: inSession(searchFor('webhooks')),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token with one character more',
    send: inSession(searchFor('webhooks'), { authorization: `Bearer ${TOKEN}x` }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token minus its last character',
    send: inSession(searchFor('webhooks'), { authorization: `Bearer ${TOKEN.slice(0, -1)}` }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token as Basic credentials',
    send: inSession(searchFor('webhooks'), {
      authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
    }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token without a scheme',
    send: inSession(searchFor('webhooks'), { authorization: TOKEN }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token followed by another word',
    send: inSession(searchFor('webhooks'), { authorization: `Bearer ${TOKEN} admin` }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token in the query string',
    send: ({ url, session }) => post(`${url}?access_token=${TOKEN}`, session, searchFor('webhooks')),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token in another header',
    send: inSession(searchFor('webhooks'), { 'x-api-key': TOKEN }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'an empty bearer',
    send: inSession(searchFor('webhooks'), { authorization: 'Bearer ' }),
    expect: { http: 401, code: -32000, message: /Unauthorized/ },
  },
  {
    name: 'the token, scheme in lower case (RFC 7235: case-insensitive)',
    send: inSession(searchFor('webhooks'), { authorization: `bearer ${TOKEN}` }),
    expect: { answered: true },
  },
];

function rpcErrorOf(text: string): { code: number; message: string } {
  const parsed = JSON.parse(text) as { jsonrpc?: string; error?: { code: number; message: string } };
  if (parsed.jsonrpc !== '2.0' || parsed.error === undefined)
    throw new Error(`not a JSON-RPC error: ${text.slice(0, 300)}`);
  return parsed.error;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: { query: string; results: unknown[] };
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
  expect(Array.isArray(result.structuredContent?.results)).toBe(true);
  if (expected.query !== undefined) expect(result.structuredContent?.query).toBe(expected.query);
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
