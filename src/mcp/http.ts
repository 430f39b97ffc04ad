import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { SearchEngine } from '../search/types.js';
import { bearerMatches, hostAllowed, originAllowed, tokenDigest } from './access.js';
import { createDocsServer } from './docs-server.js';
import { parseServerOptions, type ServerOptions, type ServerOptionsInput } from './server-options.js';
import { newSessionId, SessionRegistry } from './sessions.js';

/**
 * Streamable HTTP at /docs (MCP 2025-11-25, basic/transports), plus /healthz and /readyz. This
 * layer owns sessions, headers and status codes; the tool lives in docs-server.ts, and the engine
 * is reached only through the SearchEngine interface, read per request so a reload takes effect.
 */

export const MCP_PATH = '/docs';

/** Slow or stalled clients: headers must arrive within 10 s and a whole request within 30 s. */
export const SLOW_CLIENT_TIMEOUTS: SlowClientTimeouts = { headersMs: 10_000, requestMs: 30_000 };

export interface SlowClientTimeouts {
  /** Time to receive the request headers; a client still sending them then gets 408. */
  headersMs: number;
  /** Time to receive the whole request, body included (a trickled body gets 408). */
  requestMs: number;
}

export interface AppOptions extends ServerOptions {
  engine: () => SearchEngine;
  log?: (line: string) => void;
}

export type HttpServerOptions = ServerOptionsInput & {
  engine: () => SearchEngine;
  /** One JSON line per request and per notable event; defaults to stdout. */
  log?: (line: string) => void;
  /** Defaults to SLOW_CLIENT_TIMEOUTS; tests shorten them. */
  timeouts?: SlowClientTimeouts;
};

export interface RunningServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8080/docs: what clients are configured with. */
  url: string;
  port: number;
  /** Open sessions now (for tests and status). */
  sessionCount(): number;
  /** Ends every session, then stops listening. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

function writeLine(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * A log that never shows the token, even where a client put it by mistake (in the URL path, as a
 * session id): each line is cleaned of it as sent, JSON-escaped and percent-encoded.
 */
function redacting(log: (line: string) => void, secret: string | undefined): (line: string) => void {
  if (secret === undefined) return log;
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
  return (line) => log(forms.reduce((text, form) => text.split(form).join('[redacted]'), line));
}

/** The JSON-RPC error body the SDK also uses for transport-level refusals. */
function refuse(res: Response, status: number, message: string, code = -32000, headers: Record<string, string> = {}): void {
  res.status(status).set(headers).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

interface HttpError {
  type?: string;
  status?: number;
  message: string;
}
function isHttpError(error: unknown): error is HttpError {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string';
}

/** The Express app and its session registry; startHttpServer wraps it in a listening server. */
export function createApp(options: AppOptions): { app: Express; sessions: SessionRegistry<Session> } {
  const log = redacting(options.log ?? writeLine, options.authToken);
  const event = (fields: Record<string, unknown>) => log(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...fields }));
  const sessions = new SessionRegistry<Session>({
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    onExpire: (id) => event({ event: 'session-expired', session: id }),
  });
  const expectedToken = options.authToken === undefined ? undefined : tokenDigest(options.authToken);
  // Requests name their session in a header, except initialize, whose id only the response carries.
  const sessionOf = new WeakMap<IncomingMessage | ServerResponse, string>();

  // Each session sees the engine through this view, so a reloaded index serves existing sessions too.
  const engine: SearchEngine = {
    search: (term, searchOptions) => options.engine().search(term, searchOptions),
    summary: () => options.engine().summary(),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    // Captured now: mounted routers rewrite req.url while they run.
    const path = req.path;
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const session = req.header('mcp-session-id') ?? sessionOf.get(res);
      // Path only: no query string, no headers, so no token ever reaches the log.
      event({
        method: req.method,
        path,
        status: res.statusCode,
        ...(session ? { session } : {}),
        ms: Math.round(ms * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  });

  // Browsers send Origin; a page on another site must not reach a local server (DNS rebinding).
  app.use((req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    if (!originAllowed(origin, options.allowedOrigins)) {
      refuse(res, 403, `Forbidden: Origin ${origin} is not allowed. Add it to SVC_DOCS_ALLOWED_ORIGINS if this browser client is trusted.`);
      return;
    }
    next();
  });

  // Probes come from orchestrators with arbitrary Host headers and no token; they reveal no documents.
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req: Request, res: Response) => {
    try {
      res.json({ status: 'ready', index: options.engine().summary(), sessions: sessions.size });
    } catch (error) {
      res.status(503).json({ status: 'not ready', error: error instanceof Error ? error.message : String(error) });
    }
  });

  app.use(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (!hostAllowed(req.header('host'), options.allowedHosts)) {
      refuse(res, 403, `Forbidden: Host ${req.header('host') ?? '(none)'} is not allowed. Add the name clients use to SVC_DOCS_ALLOWED_HOSTS.`);
      return;
    }
    if (expectedToken && !bearerMatches(req.header('authorization'), expectedToken)) {
      const given = req.header('authorization') !== undefined;
      refuse(res, 401, 'Unauthorized: send the header "Authorization: Bearer <token>" with the token the server was started with (SVC_DOCS_AUTH_TOKEN).', -32000, {
        'WWW-Authenticate': given ? 'Bearer realm="svc-docs", error="invalid_token"' : 'Bearer realm="svc-docs"',
      });
      return;
    }
    const version = req.header('mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      refuse(res, 400, `Bad Request: unsupported MCP-Protocol-Version ${version}; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
      return;
    }
    next();
  });

  const sessionNotFound = (res: Response) =>
    refuse(res, 404, 'Session not found: it expired or was closed. Start a new session with an initialize request.', -32001);

  /** The session a GET, DELETE or follow-up POST names, or undefined after answering 400/404. */
  const namedSession = (req: Request, res: Response): { id: string; session: Session } | undefined => {
    const id = req.header('mcp-session-id');
    if (id === undefined) {
      refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required. Start a session with an initialize request and send the id it returns.');
      return undefined;
    }
    const session = sessions.get(id);
    if (!session) {
      sessionNotFound(res);
      return undefined;
    }
    return { id, session };
  };

  const openSession = (id: string): Session => {
    const server = createDocsServer(engine, { responseBudgetChars: options.responseBudgetChars, maxResults: options.maxResults, log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    // Set before connect(): the server chains its own close handling after this one.
    transport.onclose = () => {
      if (sessions.delete(id)) event({ event: 'session-closed', session: id });
    };
    return { server, transport, close: () => server.close() };
  };

  app.post(
    MCP_PATH,
    (req: Request, res: Response, next: NextFunction) => {
      if (!req.is('application/json')) {
        refuse(res, 415, 'Unsupported Media Type: send JSON-RPC with Content-Type: application/json');
        return;
      }
      next();
    },
    express.json({ limit: options.maxBodyBytes, strict: false }),
    async (req: Request, res: Response) => {
      const body: unknown = req.body;
      // JSON-RPC 2.0: an empty batch is an invalid request, not nothing to acknowledge with 202.
      if (Array.isArray(body) && body.length === 0) {
        refuse(res, 400, 'Invalid Request: the JSON-RPC batch is empty; send at least one message', -32600);
        return;
      }
      if (req.header('mcp-session-id') !== undefined) {
        const named = namedSession(req, res);
        if (!named) return;
        sessions.begin(named.id);
        try {
          await named.session.transport.handleRequest(req, res, body);
        } finally {
          sessions.end(named.id);
        }
        return;
      }
      if (!containsInitialize(body)) {
        refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required. Start a session with an initialize request and send the id it returns.');
        return;
      }
      if (sessions.isFull()) {
        const seconds = sessions.retryAfterSeconds();
        event({ level: 'warn', event: 'sessions-full', max: options.maxSessions });
        refuse(
          res,
          503,
          `Service Unavailable: all ${options.maxSessions} sessions are in use. Retry after ${seconds} s, or close unused sessions (DELETE /docs).`,
          -32000,
          { 'Retry-After': String(seconds) },
        );
        return;
      }
      const id = newSessionId();
      const session = openSession(id);
      // Registered before any await, so concurrent initializes cannot exceed the cap.
      sessions.add(id, session);
      sessions.begin(id);
      sessionOf.set(res, id);
      try {
        await session.server.connect(session.transport);
        await session.transport.handleRequest(req, res, body);
      } finally {
        sessions.end(id);
        // The transport refused the initialize (wrong Accept header, say): no session was opened.
        if (session.transport.sessionId === undefined) {
          sessions.delete(id);
          sessionOf.delete(res);
          await session.close();
        } else {
          event({ event: 'session-opened', session: id, sessions: sessions.size });
        }
      }
    },
  );

  // GET opens the server-to-client SSE stream; it does not count as activity, so an idle client
  // holding one open still expires and frees its slot.
  app.get(MCP_PATH, async (req: Request, res: Response) => {
    const named = namedSession(req, res);
    if (named) await named.session.transport.handleRequest(req, res);
  });

  app.delete(MCP_PATH, async (req: Request, res: Response) => {
    const named = namedSession(req, res);
    if (named) await named.session.transport.handleRequest(req, res);
  });

  app.all(MCP_PATH, (_req: Request, res: Response) => {
    refuse(res, 405, 'Method Not Allowed: use POST, GET or DELETE on /docs', -32000, { Allow: 'GET, POST, DELETE' });
  });

  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: `Not found: ${req.method} ${req.path}. The MCP endpoint is ${MCP_PATH}; health checks are /healthz and /readyz.` });
  });

  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const type = isHttpError(error) ? error.type : undefined;
    if (type === 'entity.too.large') {
      refuse(res, 413, `Payload Too Large: the request body is over ${options.maxBodyBytes} bytes (SVC_DOCS_MAX_BODY_BYTES).`);
    } else if (type === 'entity.parse.failed') {
      refuse(res, 400, 'Parse error: the request body is not valid JSON.', -32700);
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      refuse(res, 415, `Unsupported Media Type: ${isHttpError(error) ? error.message : 'unsupported encoding'}`);
    } else if (type === 'request.aborted') {
      res.end();
    } else if (isHttpError(error) && error.status !== undefined && error.status >= 400 && error.status < 500) {
      // The client's fault, found while reading the body: a gzip body that does not inflate, a
      // body shorter than its Content-Length. Not a server error, and not worth an error log line.
      refuse(res, error.status, `Bad Request: the request body could not be read (${error.message}). Send JSON, uncompressed or validly gzip/deflate/br-encoded.`);
    } else {
      const message = isHttpError(error) ? error.message : String(error);
      log(JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'request-failed', error: message }));
      refuse(res, 500, 'Internal error: the server failed to handle this request; see the server log.', -32603);
    }
  });

  return { app, sessions };
}

/** The address to show clients: a wildcard bind is reached through loopback. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Binding to a specific address means clients use it as Host; DNS rebinding cannot forge that. */
function withBoundHost(allowedHosts: string[], host: string): string[] {
  if (host === '0.0.0.0' || host === '::' || host === '') return allowedHosts;
  const name = host.includes(':') ? `[${host.toLowerCase()}]` : host.toLowerCase();
  return allowedHosts.includes(name) ? allowedHosts : [...allowedHosts, name];
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const { engine, log, timeouts = SLOW_CLIENT_TIMEOUTS, ...rest } = options;
  const settings = parseServerOptions(rest);
  const { app, sessions } = createApp({ ...settings, allowedHosts: withBoundHost(settings.allowedHosts, settings.host), engine, log });

  // Node enforces both timeouts only when it checks its connections, every 30 s by default: a
  // stalled client could then hold its socket up to 40 s instead of 10. Check every second.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, timeouts.headersMs) }, app);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${settings.host}:${settings.port}`;
      if (error.code === 'EADDRINUSE') reject(new Error(`port ${where} is already in use: stop the other process or choose another port (--port / SVC_DOCS_PORT)`));
      else if (error.code === 'EACCES') reject(new Error(`not allowed to listen on ${where}: use a port above 1023 (--port / SVC_DOCS_PORT)`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new Error(`cannot listen on ${where}: this machine has no such address (--host / SVC_DOCS_HOST)`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(settings.port, settings.host, () => {
      server.off('error', onError);
      resolve();
    });
  });

  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(settings.host)}:${port}${MCP_PATH}`;
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(settings.host) || settings.host.startsWith('127.');
  (log ?? writeLine)(
    JSON.stringify({
      time: new Date().toISOString(),
      level: loopback || settings.authToken ? 'info' : 'warn',
      event: 'listening',
      url,
      auth: settings.authToken !== undefined,
      allowedHosts: settings.allowedHosts,
      ...(loopback || settings.authToken ? {} : { warning: 'reachable from other machines without a token: set SVC_DOCS_AUTH_TOKEN' }),
    }),
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    sessionCount: () => sessions.size,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await sessions.closeAll();
        // Keep-alive sockets and any stream a client still holds would delay close() indefinitely.
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
