import { initializeBody } from '../helpers/mcp-client.js';
import {
  BINARY,
  call,
  inSession,
  post,
  QUERY_SYNTAX,
  REGEX_METACHARACTERS,
  type Row,
  searchFor,
} from './hostile-requests.js';

/** Rows of the hostile-input table: JSON and JSON-RPC framing, and the search term. */
export const PROTOCOL_ROWS: Row[] = [
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
];
