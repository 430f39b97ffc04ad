import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { refuse, RpcCode } from '../../http/refuse.js';
import type { Log } from '../../observe/log.js';
import { type ClientInfo, clientOfBody } from '../../observe/mcp-request.js';
import type { SessionOfResponse } from './request-log.js';
import { clientKeyOf } from './fair-share.js';
import { newSessionId, SessionRegistry } from './sessions.js';

/**
 * The 2025 era with sessions, as the platform's interface (the SearchDocs contract) describes it: POST initialize opens a session and
 * returns its Mcp-Session-Id, later requests run in it, DELETE ends it and frees everything, and
 * an unknown or ended id gets 404. Each session is one McpServer on one session transport.
 */

interface Session {
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  close(): Promise<void>;
  /** The client that opened the session (initialize's clientInfo), for the log. */
  client: ClientInfo | undefined;
}

interface LegacySessionsOptions {
  maxSessions: number;
  /** Sessions one client (fair-share.ts) holds at most; beyond it, initialize gets 429. */
  maxSessionsPerClient: number;
  sessionIdleMs: number;
  /** A fresh MCP server for a new session. */
  newServer: () => McpServer;
  event: Log;
  sessionOf: SessionOfResponse;
  /** Prefix of every session id this replica mints (see newSessionId). */
  replicaId?: string;
}

function sessionNotFound(res: Response): void {
  refuse(
    res,
    404,
    'Session not found: it expired or was closed. Start a new session with an initialize request.',
    RpcCode.SessionNotFound,
  );
}

export class LegacySessions {
  readonly registry: SessionRegistry<Session>;

  constructor(private readonly options: LegacySessionsOptions) {
    this.registry = new SessionRegistry<Session>({
      maxSessions: options.maxSessions,
      idleMs: options.sessionIdleMs,
      onExpire: (id) => options.event({ event: 'session-expired', session: id }),
    });
  }

  /** The client that opened a session, if it named itself. */
  clientOf(id: string): ClientInfo | undefined {
    return this.registry.get(id)?.client;
  }

  /** Whether this POST opens a session (initialize, alone or in a batch, and no session id). */
  opensSession(req: Request, body: unknown): boolean {
    if (req.header('mcp-session-id') !== undefined) return false;
    return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
  }

  /** A POST that opens a session or runs in the one it names. */
  async post(req: Request, res: Response, body: unknown): Promise<void> {
    const id = req.header('mcp-session-id');
    if (id === undefined) return this.initialize(req, res, body);
    const session = this.registry.get(id);
    if (!session) return sessionNotFound(res);
    await this.inSession(id, res, () => session.transport.handleRequest(req, res, body));
  }

  /**
   * GET (the server-to-client stream) and DELETE of a named session. GET does not count as
   * activity, so an idle client holding a stream open still expires and frees its slot.
   */
  async other(req: Request, res: Response): Promise<void> {
    const id = req.header('mcp-session-id');
    if (id === undefined && req.method === 'GET')
      return refuse(
        res,
        405,
        'Method Not Allowed: without a session there is no server-to-client stream; POST requests to /docs.',
        RpcCode.ServerError,
        { Allow: 'POST' },
      );
    if (id === undefined) return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required to end a session.');
    const session = this.registry.get(id);
    if (!session) return sessionNotFound(res);
    await session.transport.handleRequest(req, res);
  }

  private openSession(id: string, client: ClientInfo | undefined): Session {
    const server = this.options.newServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    // Set before connect(): the server chains its own close handling after this one.
    transport.onclose = () => {
      if (this.registry.delete(id)) this.options.event({ event: 'session-closed', session: id });
    };
    return { server, transport, close: () => server.close(), client };
  }

  /** Runs one request in a session, counting it as activity; refuses it (429) past the pending bound. */
  private async inSession(id: string, res: Response, run: () => Promise<void>): Promise<void> {
    if (!this.registry.begin(id)) {
      const message =
        'Too Many Requests: this session already has requests waiting to be answered and read. Read those responses first.';
      return refuse(res, 429, message, RpcCode.ServerError, { 'Retry-After': '1' });
    }
    try {
      await run();
    } finally {
      this.registry.end(id);
    }
  }

  private refuseFull(res: Response): void {
    const seconds = this.registry.retryAfterSeconds();
    const max = this.options.maxSessions;
    this.options.event({ level: 'warn', event: 'sessions-full', max });
    const message = `Service Unavailable: all ${max} sessions are in use. Retry after ${seconds} s, or close unused sessions (DELETE /docs).`;
    refuse(res, 503, message, RpcCode.ServerError, { 'Retry-After': String(seconds) });
  }

  /** 429: this client holds its share of sessions; others can still open theirs. */
  private refuseClientFull(res: Response, client: string): void {
    const seconds = this.registry.retryAfterSeconds(Date.now(), client);
    const max = this.options.maxSessionsPerClient;
    this.options.event({ level: 'warn', event: 'client-sessions-full', clientKey: client, max });
    const message = `Too Many Requests: this client already holds ${max} sessions. Close unused ones (DELETE /docs) or retry after ${seconds} s.`;
    refuse(res, 429, message, RpcCode.ServerError, { 'Retry-After': String(seconds) });
  }

  private async initialize(req: Request, res: Response, body: unknown): Promise<void> {
    const client = clientKeyOf(res);
    if (this.registry.ownedBy(client) >= this.options.maxSessionsPerClient) return this.refuseClientFull(res, client);
    if (this.registry.isFull()) {
      // The oldest idle session of the client holding most gives way (sessions.ts), so no one is locked out.
      const evicted = this.registry.evictForNew();
      if (evicted === undefined) return this.refuseFull(res);
      this.options.event({ level: 'warn', event: 'session-evicted', session: evicted, max: this.options.maxSessions });
    }
    const id = newSessionId(this.options.replicaId);
    const session = this.openSession(id, clientOfBody(body));
    // Registered before any await, so concurrent initializes cannot exceed the caps.
    this.registry.add(id, session, client);
    this.options.sessionOf.set(res, id);
    try {
      await this.inSession(id, res, async () => {
        await session.server.connect(session.transport);
        await session.transport.handleRequest(req, res, body);
      });
    } finally {
      // The transport refused the initialize (wrong Accept header, say): no session was opened.
      if (session.transport.sessionId === undefined) {
        this.registry.delete(id);
        this.options.sessionOf.delete(res);
        await session.close();
      } else {
        this.options.event({ event: 'session-opened', session: id, sessions: this.registry.size });
      }
    }
  }
}
