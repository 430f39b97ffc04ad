import { gzipSync } from 'node:zlib';
import { openRawSession, sessionHeaders } from '../helpers/mcp-client.js';
import { rawExchange, send } from './helpers.js';
import { inSession, post, rawHead, type Row, searchFor, TOKEN } from './hostile-requests.js';

/** Rows of the hostile-input table: headers and bodies. */
export const HTTP_ROWS: Row[] = [
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
export const TOKEN_ROWS: Row[] = [
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
