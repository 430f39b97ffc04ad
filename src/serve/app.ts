import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { SearchEngine } from '../search/types.js';
import { createDocsServer } from '../mcp/tools/docs-server.js';
import { errorHandler } from './error-handler.js';
import { corsHeaders } from '../http/cors.js';
import { authGuard, hostGuard, type OAuthAccess, originGuard, requestShapeGuard } from '../mcp/http/guards.js';
import { LegacySessions } from '../mcp/http/legacy-sessions.js';
import { metadataDocument, metadataPaths } from '../mcp/oauth/metadata.js';
import { oauthConfigOf } from '../settings/oauth-config.js';
import type { KeyTimings } from '../mcp/oauth/jwks.js';
import { createTokenVerifier } from '../mcp/oauth/verify.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import { requestLog, type SessionOfResponse, writeLine } from '../mcp/http/request-log.js';
import { boundedLines } from '../http/redact.js';
import type { ServerOptions } from '../settings/server-options.js';
import { statelessExchanges, type Stateless } from '../mcp/http/stateless.js';
import { jsonLog, type Log, type LogLine } from '../observe/log.js';
import { ServerMetrics } from '../observe/metrics.js';
import { METRICS_PATH, metricsAuth, metricsRoute } from '../observe/metrics-route.js';
import type { QueryStore } from '../observe/query-store.js';
import { secretFree } from '../observe/redacted-log.js';
import { requestObserver } from '../observe/request-observer.js';
import { isLoopback } from '../http/access.js';
import { pageAuth } from '../web/page-access.js';
import { searchPageRoutes } from '../web/page-routes.js';
import { writeTimeout } from '../mcp/http/write-timeout.js';
import { MCP_ALIAS, MCP_PATH, MCP_PATHS, mcpRoutes } from '../mcp/http/routes.js';
import { clientKeyOf, clientTag, requestShare } from '../mcp/http/fair-share.js';
import { TurnGate } from '../http/turn-gate.js';
import { proxyTrust } from '../http/client-identity.js';

/**
 * The Express app, assembled here because serving is what puts the parts together: the MCP
 * routes (/docs and its alias /mcp, both protocol eras: mcp/http/routes.ts), /healthz and
 * /readyz, /metrics and the search page when enabled, and the guards in front of them all. With
 * OAuth configured, /.well-known/oauth-protected-resource[/docs|/mcp] tell clients where to get a
 * token.
 */

export { MCP_PATH };

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

/**
 * Each server sees the engine through this view, so a reloaded index serves open sessions too. A
 * search's results come back through the gate: its answer is rendered on this thread in a turn of
 * its own, not in one turn with every other search that finished meanwhile (http/turn-gate.ts).
 */
function liveView(options: AppOptions): { engine: SearchEngine; pages: () => PageIndex; gate: TurnGate } {
  const gate = new TurnGate();
  const engine: SearchEngine = {
    search: async (term, searchOptions) => {
      const results = await options.engine().search(term, searchOptions);
      await gate.turn(searchOptions?.client ?? '');
      return results;
    },
    summary: () => options.engine().summary(),
  };
  const pages =
    options.pages ??
    (() => {
      const current = options.engine();
      return hasIndex(current) ? current.index : { documents: [], sections: [] };
    });
  return { engine, pages, gate };
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

/**
 * What /docs and the search page put in front of their work, per client: its tag, its share of
 * running requests, then a turn of the event loop of its own to start in (http/turn-gate.ts).
 */
function clientShares(options: AppOptions, event: Log, gate: TurnGate): RequestHandler[] {
  const admitted: RequestHandler = (_req, res, next) => gate.admit(clientKeyOf(res), next);
  return [clientTag(proxyTrust(options.trustedProxies)), requestShare(options.maxRequestsPerClient, event), admitted];
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
  const shares = clientShares(options, event, view.gate);
  mcpRoutes(app, options, { auth, shares, legacy: sessions, stateless, observer });
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
