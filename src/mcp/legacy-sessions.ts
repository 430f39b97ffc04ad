import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { refuse, RpcCode } from './errors.js';
import type { LogEvent, SessionOfResponse } from './request-log.js';
import { newSessionId, SessionRegistry } from './sessions.js';

/**
 * The 2025 era with sessions, as the seed describes it: POST initialize opens a session and
 * returns its Mcp-Session-Id, later requests run in it, DELETE ends it and frees everything, and
 * an unknown or ended id gets 404. Each session is one McpServer on one session transport.
 */

interface Session {
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  close(): Promise<void>;
}

export interface LegacySessionsOptions {
  maxSessions: number;
  sessionIdleMs: number;
  /** Requests one session runs at once at most. */
  maxPendingPerSession?: number;
  /** A fresh MCP server for a new session. */
  newServer: () => McpServer;
  event: LogEvent;
  sessionOf: SessionOfResponse;
  /** Prefix of every session id this replica mints (see newSessionId). */
  replicaId?: string;
}

export interface LegacySessions {
  registry: SessionRegistry<Session>;
  /** Whether this POST opens a session (initialize, alone or in a batch, and no session id). */
  opensSession(req: Request, body: unknown): boolean;
  post(req: Request, res: Response, body: unknown): Promise<void>;
  /** GET (the server-to-client stream) and DELETE of a named session. */
  other(req: Request, res: Response): Promise<void>;
}

function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

function sessionNotFound(res: Response): void {
  refuse(res, 404, 'Session not found: it expired or was closed. Start a new session with an initialize request.', RpcCode.SessionNotFound);
}

export function legacySessions(options: LegacySessionsOptions): LegacySessions {
  const { event, sessionOf } = options;
  const registry = new SessionRegistry<Session>({
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    maxPending: options.maxPendingPerSession,
    onExpire: (id) => event({ event: 'session-expired', session: id }),
  });

  const openSession = (id: string): Session => {
    const server = options.newServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    // Set before connect(): the server chains its own close handling after this one.
    transport.onclose = () => {
      if (registry.delete(id)) event({ event: 'session-closed', session: id });
    };
    return { server, transport, close: () => server.close() };
  };

  /** Runs one request in a session, counting it as activity; refuses it (429) past the pending bound. */
  const inSession = async (id: string, res: Response, run: () => Promise<void>) => {
    if (!registry.begin(id)) {
      const message = 'Too Many Requests: this session already has requests waiting to be answered and read. Read those responses first.';
      refuse(res, 429, message, RpcCode.ServerError, { 'Retry-After': '1' });
      return;
    }
    try {
      await run();
    } finally {
      registry.end(id);
    }
  };

  const initialize = async (req: Request, res: Response, body: unknown) => {
    if (registry.isFull()) {
      const seconds = registry.retryAfterSeconds();
      event({ level: 'warn', event: 'sessions-full', max: options.maxSessions });
      const message = `Service Unavailable: all ${options.maxSessions} sessions are in use. Retry after ${seconds} s, or close unused sessions (DELETE /docs).`;
      refuse(res, 503, message, RpcCode.ServerError, { 'Retry-After': String(seconds) });
      return;
    }
    const id = newSessionId(options.replicaId);
    const session = openSession(id);
    // Registered before any await, so concurrent initializes cannot exceed the cap.
    registry.add(id, session);
    sessionOf.set(res, id);
    try {
      await inSession(id, res, async () => {
        await session.server.connect(session.transport);
        await session.transport.handleRequest(req, res, body);
      });
    } finally {
      // The transport refused the initialize (wrong Accept header, say): no session was opened.
      if (session.transport.sessionId === undefined) {
        registry.delete(id);
        sessionOf.delete(res);
        await session.close();
      } else {
        event({ event: 'session-opened', session: id, sessions: registry.size });
      }
    }
  };

  return {
    registry,
    opensSession: (req, body) => req.header('mcp-session-id') === undefined && containsInitialize(body),
    async post(req, res, body) {
      const id = req.header('mcp-session-id');
      if (id === undefined) {
        await initialize(req, res, body);
        return;
      }
      const session = registry.get(id);
      if (!session) return sessionNotFound(res);
      await inSession(id, res, () => session.transport.handleRequest(req, res, body));
    },
    // GET opens the server-to-client SSE stream; it does not count as activity, so an idle client
    // holding one open still expires and frees its slot.
    async other(req, res) {
      const id = req.header('mcp-session-id');
      if (id === undefined) {
        if (req.method === 'GET') {
          refuse(res, 405, 'Method Not Allowed: without a session there is no server-to-client stream; POST requests to /docs.', RpcCode.ServerError, { Allow: 'POST' });
        } else {
          refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required to end a session.');
        }
        return;
      }
      const session = registry.get(id);
      if (!session) return sessionNotFound(res);
      await session.transport.handleRequest(req, res);
    },
  };
}
