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
import { redactingJwts } from '../oauth/redact.js';
import { oauthConfigOf } from '../oauth/settings.js';
import { createTokenVerifier } from '../oauth/verify.js';
import type { PageIndex } from '../tools/pages.js';
import { eventLogger, redacting, requestLog, type SessionOfResponse, writeLine } from './request-log.js';
import type { ServerOptions } from '../server-options.js';
import { statelessExchanges, type Stateless } from './stateless.js';

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
  log?: (line: string) => void;
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

function mcpRoutes(
  app: Express,
  options: AppOptions,
  auth: RequestHandler,
  legacy: LegacySessions,
  stateless: Stateless,
): void {
  app.use(MCP_PATHS, hostGuard(options.allowedHosts), preflight, auth);
  app.post(MCP_PATHS, ...jsonBody(options.maxBodyBytes), async (req: Request, res: Response) => {
    const body: unknown = req.body;
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) return stateless.modern(req, res, body);
    if (req.header('mcp-session-id') !== undefined || legacy.opensSession(req, body))
      return legacy.post(req, res, body);
    return stateless.legacyOneShot(req, res, body);
  });
  app.get(MCP_PATHS, (req: Request, res: Response) => legacy.other(req, res));
  app.delete(MCP_PATHS, (req: Request, res: Response) => legacy.other(req, res));
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
function oauthAccess(options: AppOptions): OAuthAccess | undefined {
  const config = oauthConfigOf(options);
  return config === undefined ? undefined : { config, verifier: createTokenVerifier(config), aliasPath: MCP_ALIAS };
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

export function createApp(options: AppOptions): App {
  const log = redactingJwts(redacting(options.log ?? writeLine, options.authToken));
  const event = eventLogger(log);
  const sessionOf: SessionOfResponse = new WeakMap();
  const { engine, pages } = liveView(options);
  const newServer = () =>
    createDocsServer(engine, {
      responseBudgetChars: options.responseBudgetChars,
      maxResults: options.maxResults,
      structuredOutput: options.structuredOutput,
      readPageTool: options.readPageTool,
      pages,
      log,
    });
  const legacy = new LegacySessions({
    maxSessions: options.maxSessions,
    sessionIdleMs: options.sessionIdleMs,
    replicaId: options.replicaId,
    newServer,
    event,
    sessionOf,
  });
  const stateless = statelessExchanges({
    maxConcurrent: options.maxSessions,
    maxBodyBytes: options.maxBodyBytes,
    newServer,
    event,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestLog(event, sessionOf));
  app.use(requestShapeGuard);
  app.use(originGuard(options.allowedOrigins));
  app.use(corsHeaders(options.allowedOrigins));
  const oauth = oauthAccess(options);
  const auth = authGuard(options.authToken, oauth, event);
  if (oauth !== undefined) metadataRoutes(app, options, oauth);
  healthRoutes(app, options, auth, legacy);
  mcpRoutes(app, options, auth, legacy, stateless);
  app.use((req: Request, res: Response) => {
    res.status(404).json({
      error: `Not found: ${req.method} ${req.path}. The MCP endpoint is ${MCP_PATH} (alias ${MCP_ALIAS}); health checks are /healthz and /readyz.`,
    });
  });
  app.use(errorHandler(options.maxBodyBytes, log));
  return { app, sessions: legacy.registry, stateless };
}
