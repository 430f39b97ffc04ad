import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SearchEngine } from '../search/types.js';
import { type App, type AppOptions, createApp, MCP_PATH } from './app.js';
import { isLoopback } from '../http/access.js';
import { type LogEntry, type LogLine, logLine } from '../observe/log.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import { writeLine } from '../mcp/http/request-log.js';
import { parseServerOptions, type ServerOptions, type ServerOptionsInput } from '../settings/server-options.js';
import { listenError } from './listen-error.js';

/**
 * The listening server: binds, enforces the slow-client timeouts, reports where it listens, and
 * closes every session on shutdown. What it serves is app.ts.
 */

export type { AppOptions } from './app.js';

/** Slow or stalled clients: headers must arrive within 10 s and a whole request within 30 s. */
export const SLOW_CLIENT_TIMEOUTS: SlowClientTimeouts = { headersMs: 10_000, requestMs: 30_000 };

interface SlowClientTimeouts {
  /** Time to receive the request headers; a client still sending them then gets 408. */
  headersMs: number;
  /** Time to receive the whole request, body included (a trickled body gets 408). */
  requestMs: number;
}

export type HttpServerOptions = ServerOptionsInput & {
  engine: () => SearchEngine;
  /** The loaded index's pages; defaults to the engine's own index when it has one. */
  pages?: () => PageIndex;
  /** One JSON line per request and per notable event; defaults to stdout. */
  log?: LogLine;
  /** Where searches are recorded for the docs-gap report. */
  store?: AppOptions['store'];
  /** Index reloads so far, for /metrics. */
  reloads?: AppOptions['reloads'];
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
  const { engine, pages, log, store, reloads, timeouts = SLOW_CLIENT_TIMEOUTS, ...rest } = options;
  const settings = parseServerOptions(rest);
  const { app, sessions, stateless } = createApp({
    ...settings,
    allowedHosts: withBoundHost(settings.allowedHosts, settings.host),
    engine,
    pages,
    log,
    store,
    reloads,
  });
  const server = withSlowClientTimeouts(app, timeouts);
  await listen(server, settings.host, settings.port);

  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(settings.host)}:${port}${MCP_PATH}`;
  (log ?? writeLine)(logLine(listeningEvent(settings, url)));
  return { url, port, sessionCount: () => sessions.size, close: closeOnce(server, sessions, stateless) };
}

function withSlowClientTimeouts(app: App['app'], timeouts: SlowClientTimeouts): Server {
  // Node enforces both timeouts only when it checks its connections, every 30 s by default: a
  // stalled client could then hold its socket up to 40 s instead of 10. Check every second.
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, timeouts.headersMs) }, app);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  return server;
}

/** Resolves once the server listens; a bind failure rejects with what to change. */
async function listen(server: Server, host: string, port: number): Promise<void> {
  server.listen(port, host);
  await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, `${host}:${port}`);
  });
}

/** The startup log entry: where clients connect, and a warning when anyone can without credentials. */
function listeningEvent(settings: ServerOptions, url: string): LogEntry {
  const auth = [
    settings.authToken !== undefined ? 'token' : undefined,
    settings.oauthIssuer !== undefined ? 'oauth' : undefined,
  ].filter((a) => a !== undefined);
  const safe = isLoopback(settings.host) || auth.length > 0;
  return {
    level: safe ? 'info' : 'warn',
    event: 'listening',
    url,
    auth: auth.length > 0,
    authModes: auth,
    allowedHosts: settings.allowedHosts,
    ...(safe
      ? {}
      : {
          warning:
            'reachable from other machines without authentication: set SVC_DOCS_AUTH_TOKEN or SVC_DOCS_OAUTH_ISSUER',
        }),
  };
}

/** Ends every session, then stops listening; later calls share the first call's promise. */
function closeOnce(server: Server, sessions: App['sessions'], stateless: App['stateless']): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([sessions.closeAll(), stateless.close()]);
      // Keep-alive sockets and any stream a client still holds would delay close() indefinitely.
      server.closeAllConnections();
      await stopped;
    })();
    return closing;
  };
}
