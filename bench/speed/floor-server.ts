import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { searchDocsInputSchema } from '../../src/mcp/tools/search-schema.js';
import { flagValue } from '../lib/flags.js';

/**
 * The MCP SDK's own floor: the least an MCP server built from the classes svc-docs uses can do
 * per SearchDocs call. One McpServer on one NodeStreamableHTTPServerTransport per session (the
 * 2025-era sessions the benchmark's client opens), answers as SSE (the transport's default), and
 * one tool whose answer is svc-docs' own text for the same query, looked up in a map. No search,
 * no render, no express, no logging: what is left is HTTP, JSON-RPC, the SDK's schema checks and
 * the answer's bytes, which every MCP server pays. Run as a child of the benchmark:
 * `node floor-server.js --answers=<file.json> --port=<n>`; prints `listening <port>` when ready.
 */

const answersSchema = z.record(z.string(), z.string());

/** The searchTerm the client sent, trimmed as svc-docs' input schema trims it. */
function answerOf(answers: Record<string, string>, searchTerm: string): string {
  return answers[searchTerm] ?? answers[searchTerm.trim()] ?? `no captured answer for '${searchTerm}'`;
}

function newServer(answers: Record<string, string>): McpServer {
  const server = new McpServer({ name: 'sdk-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'SearchDocs',
    { title: 'Search documentation', inputSchema: searchDocsInputSchema },
    async ({ searchTerm }) => ({ content: [{ type: 'text' as const, text: answerOf(answers, searchTerm) }] }),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function handler(answers: Record<string, string>) {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      res.writeHead(400).end('no such session');
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await newServer(answers).connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

const answersFile = flagValue('answers');
const port = Number(flagValue('port') ?? '0');
if (answersFile === undefined) throw new Error('floor-server: --answers=<file.json> is required');
const answers = answersSchema.parse(JSON.parse(readFileSync(answersFile, 'utf8')));
const serve = handler(answers);
const server = createServer((req, res) => {
  serve(req, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  });
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
