import { toWebRequest } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { SearchEngine } from '../../search/types.js';
import { jsonBody } from './body.js';
import { createDocsServer } from '../tools/docs-server.js';
import { errorHandler, refuse } from './errors.js';
import { corsHeaders, preflight } from './cors.js';
import { authGuard, hostGuard, type OAuthAccess, originGuard, requestShapeGuard } from './guards.js';
import { LegacySessions } from './legacy-sessions.js';
import { metadataDocument, metadataPaths } from '../oauth/metadata.js';
import { oauthConfigOf } from '../oauth/settings.js';
import type { KeyTimings } from '../oauth/jwks.js';
import { createTokenVerifier } from '../oauth/verify.js';
import type { PageIndex } from '../tools/pages.js';
import { requestLog, type SessionOfResponse, writeLine } from './request-log.js';
import { boundedLines } from './redact.js';
import { proxyTrust } from './client-identity.js';
import { clientTag, requestShare } from './fair-share.js';
import type { ServerOptions } from '../server-options.js';
import { statelessExchanges, type Stateless } from './stateless.js';
import { jsonLog, type Log, type LogLine } from '../../observe/log.js';
import { describeMcpBody } from '../../observe/mcp-request.js';
import { ServerMetrics } from '../../observe/metrics.js';
import { METRICS_PATH, metricsAuth, metricsRoute } from '../../observe/metrics-route.js';
import type { QueryStore } from '../../observe/query-store.js';
import { secretFree } from '../../observe/redacted-log.js';
import { type RequestObserver, requestObserver } from '../../observe/request-observer.js';
import { isLoopback } from './access.js';
import { pageAuth } from '../../web/page-access.js';
import { searchPageRoutes } from '../../web/page-routes.js';
import { writeTimeout } from './write-timeout.js';

/**
 * The Express app: /docs (and its alias /mcp) serving both protocol eras, plus /healthz and
 * /readyz. Each POST is told apart with the SDK's own isLegacyRequest: 2026-07-28 requests go to
 * the stateless modern handler, 2025-era ones to their session (or a one-shot exchange when they
 * name none and are not an initialize). Access checks, the body limit and the caps sit in front of
 * both eras. With OAuth configured, /.well-known/oauth-protected-resource[/docs|/mcp] tell clients
 * where to get a token.
 */

export const MCP_PATH = '/docs';
/** MCP Inspector up to 0.15 rewrites every URL to /mcp. */
const MCP_ALIAS = '/mcp';
const MCP_PATHS = [MCP_PATH, MCP_ALIAS];

export interface AppOptions extends ServerOptions {
  engine: () => SearchEngine;
  /** The loaded index's pages (for resources and ReadPage); defaults to the engine's own index when it has one. */
  pages?: () => PageIndex;
  log?: LogLine;
  /** Where searches are recorded for the docs-gap report (serve.ts opens it in the index folder). */
  store?: QueryStore;
  /** Index reloads so far, for /metrics (the live engine's count). */
  reloads?: () => { reloaded: number; refused: number };
  /** How long the issuer's keys are cached and stand in while it is down (oauth/jwks.ts); tests shorten them. */
  oauthKeyTimings?: KeyTimings;
}

export interface App {
  app: Express;
  sessions: LegacySessions['registry'];
  stateless: Stateless;
}

function hasIndex(engine: SearchEngine): engine is SearchEngine & { index: PageIndex } {
  return 'index' in engine && typeof engine.index === 'object' && engine.index !== null && 'documents' in engine.index;
}

/** Each server sees the engine through this view, so a reloaded index serves open sessions too. */
function liveView(options: AppOptions): { engine: SearchEngine; pages: () => PageIndex } {
  const engine: SearchEngine = {
    search: (term, searchOptions) => options.engine().search(term, searchOptions),
    summary: () => options.engine().summary(),
  };
  const pages =
    options.pages ??
    (() => {
      const current = options.engine();
      return hasIndex(current) ? current.index : { documents: [], sections: [] };
    });
  return { engine, pages };
}

/** What the routes share: the access check, both eras' handlers, and the observer of each request. */
interface Parts {
  auth: RequestHandler;
  /** The client tag and its share (fair-share.ts), one count for /docs and the search page. */
  shares: RequestHandler[];
  legacy: LegacySessions;
  stateless: Stateless;
  observer: RequestObserver;
  event: Log;
}

function mcpRoutes(app: Express, options: AppOptions, { auth, shares, legacy, stateless, observer }: Parts): void {
  app.use(MCP_PATHS, hostGuard(options.allowedHosts), preflight, auth, ...shares);
  app.post(MCP_PATHS, ...jsonBody(options.maxBodyBytes), async (req: Request, res: Response) => {
    const body: unknown = req.body;
    const modern = !(await isLegacyRequest(await toWebRequest(req, body), body));
    const session = req.header('mcp-session-id');
    const sessionClient = session === undefined ? undefined : legacy.clientOf(session);
    const request = describeMcpBody(body, modern ? '2026-07-28' : '2025', sessionClient);
    return observer.run(res, request, () => {
      if (modern) return stateless.modern(req, res, body);
      if (session !== undefined || legacy.opensSession(req, body)) return legacy.post(req, res, body);
      return stateless.legacyOneShot(req, res, body);
    });
  });
  const other = (req: Request, res: Response) => {
    const session = req.header('mcp-session-id');
    const client = session === undefined ? undefined : legacy.clientOf(session);
    const request = { era: '2025' as const, method: req.method, ...(client === undefined ? {} : { client }) };
    return observer.run(res, request, () => legacy.other(req, res));
  };
  app.get(MCP_PATHS, other);
  app.delete(MCP_PATHS, other);
  app.all(MCP_PATHS, (req: Request, res: Response) => {
    refuse(res, 405, `Method Not Allowed: use POST, GET or DELETE on ${req.path}`, -32000, {
      Allow: 'GET, POST, DELETE',
    });
  });
}

function healthRoutes(app: Express, options: AppOptions, auth: RequestHandler, legacy: LegacySessions): void {
  // Liveness probes come from orchestrators with arbitrary Host headers and no token; it reveals nothing.
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  // Readiness names the knowledge bases and counts sessions: the same checks as /docs.
  app.get('/readyz', hostGuard(options.allowedHosts), auth, (_req: Request, res: Response) => {
    try {
      res.json({ status: 'ready', index: options.engine().summary(), sessions: legacy.registry.size });
    } catch (error) {
      res.status(503).json({ status: 'not ready', error: error instanceof Error ? error.message : String(error) });
    }
  });
}

/** The OAuth resource-server mode, when an issuer is configured (reads a JWKS file at startup). */
function oauthAccess(options: AppOptions, event: Log): OAuthAccess | undefined {
  const config = oauthConfigOf(options);
  if (config === undefined) return undefined;
  const onKeysStale = (error: Error) =>
    event({ level: 'warn', event: 'oauth-keys-stale', error: `${error.message}; the last keys fetched stand in` });
  const verifier = createTokenVerifier(config, { onKeysStale, keyTimings: options.oauthKeyTimings });
  return { config, verifier, aliasPath: MCP_ALIAS };
}

/** Protected Resource Metadata (RFC 9728): open to all, so clients can discover where to get a token. */
function metadataRoutes(app: Express, options: AppOptions, oauth: OAuthAccess): void {
  for (const [path, resource] of metadataPaths(oauth.config, MCP_PATH, MCP_ALIAS)) {
    const document = metadataDocument(oauth.config, resource);
    app.get(path, hostGuard(options.allowedHosts), (_req: Request, res: Response) => {
      res.set('Cache-Control', 'public, max-age=300').json(document);
    });
  }
}

/** The metrics (unless off) and the observer that feeds them, the log lines and the query store. */
function observability(options: AppOptions, engine: SearchEngine, sessions: () => number) {
  const metrics = options.metrics
    ? new ServerMetrics({ sessions, index: () => engine.summary(), reloads: options.reloads })
    : undefined;
  const observer = requestObserver({
    mcpPaths: MCP_PATHS,
    metrics,
    store: options.store,
    logQueries: options.logQueries ?? isLoopback(options.host),
  });
  return { metrics, observer };
}

/** /metrics and the search page, each when enabled, behind the checks /readyz and /docs have. */
function observeRoutes(
  app: Express,
  options: AppOptions,
  view: ReturnType<typeof liveView>,
  access: {
    auth: RequestHandler;
    shares: RequestHandler[];
    hasCredentials: boolean;
    metrics: ServerMetrics | undefined;
  },
): void {
  const host = hostGuard(options.allowedHosts);
  if (access.metrics !== undefined)
    metricsRoute(app, [host, metricsAuth(options.metricsToken, access.auth, access.hasCredentials)], access.metrics);
  if (options.webPage)
    searchPageRoutes(app, {
      guards: [host, pageAuth(options.authToken, access.auth), ...access.shares],
      ...view,
      store: options.store,
      search: { maxResults: options.maxResults, responseBudgetChars: options.responseBudgetChars },
    });
}

export function createApp(options: AppOptions): App {
  // Secrets out first, then long lines cut: a cut made first could leave part of a secret.
  const log = secretFree(boundedLines(options.log ?? writeLine), [options.authToken, options.metricsToken]);
  const event = jsonLog(log);
  const sessionOf: SessionOfResponse = new WeakMap();
  const view = liveView(options);
  const { engine, pages } = view;
  let legacy: LegacySessions | undefined;
  const { metrics, observer } = observability(options, engine, () => legacy?.registry.size ?? 0);
  const newServer = () =>
    createDocsServer(engine, {
      responseBudgetChars: options.responseBudgetChars,
      pageBudgetChars: options.pageBudgetChars,
      maxResults: options.maxResults,
      structuredOutput: options.structuredOutput,
      readPageTool: options.readPageTool,
      pages,
      log,
      onSearch: observer.searched,
    });
  const sessions = new LegacySessions({
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    sessionIdleMs: options.sessionIdleMs,
    replicaId: options.replicaId,
    newServer,
    event,
    sessionOf,
  });
  legacy = sessions;
  const stateless = statelessExchanges({
    maxConcurrent: options.maxSessions,
    maxBodyBytes: options.maxBodyBytes,
    newServer,
    event,
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestLog(event, sessionOf, observer.finish));
  app.use(writeTimeout(options.writeTimeoutMs, event));
  app.use(requestShapeGuard);
  app.use(originGuard(options.allowedOrigins));
  app.use(corsHeaders(options.allowedOrigins));
  const oauth = oauthAccess(options, event);
  const auth = authGuard(options.authToken, oauth, event);
  if (oauth !== undefined) metadataRoutes(app, options, oauth);
  healthRoutes(app, options, auth, sessions);
  const shares = [clientTag(proxyTrust(options.trustedProxies)), requestShare(options.maxRequestsPerClient, event)];
  mcpRoutes(app, options, { auth, shares, legacy: sessions, stateless, observer, event });
  const hasCredentials = options.authToken !== undefined || oauth !== undefined;
  observeRoutes(app, options, view, { auth, shares, hasCredentials, metrics });
  app.use((req: Request, res: Response) => {
    res.status(404).json({
      error: `Not found: ${req.method} ${req.path}. The MCP endpoint is ${MCP_PATH} (alias ${MCP_ALIAS}); health checks are /healthz and /readyz${metrics ? `; metrics: ${METRICS_PATH}` : ''}.`,
    });
  });
  app.use(errorHandler(options.maxBodyBytes, log));
  return { app, sessions: sessions.registry, stateless };
}
