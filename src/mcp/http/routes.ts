import { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { Express, Request, RequestHandler, Response } from 'express';
import { preflight } from '../../http/cors.js';
import { refuse } from '../../http/refuse.js';
import { describeMcpBody } from '../../observe/mcp-request.js';
import type { RequestObserver } from '../../observe/request-observer.js';
import type { ServerOptions } from '../../settings/server-options.js';
import { jsonBody } from './body.js';
import { hostGuard } from './guards.js';
import type { LegacySessions } from './legacy-sessions.js';
import type { Stateless } from './stateless.js';

/**
 * The MCP routes: /docs (and its alias /mcp) serving both protocol eras. Each POST is told apart
 * with the SDK's own isLegacyRequest: 2026-07-28 requests go to the stateless modern handler,
 * 2025-era ones to their session (or a one-shot exchange when they name none and are not an
 * initialize). Access checks, the body limit and the caps sit in front of both eras. The app
 * around them (health, metrics, the page for people) is assembled in serve/app.ts.
 */

export const MCP_PATH = '/docs';
/** MCP Inspector up to 0.15 rewrites every URL to /mcp. */
export const MCP_ALIAS = '/mcp';
export const MCP_PATHS = [MCP_PATH, MCP_ALIAS];

type RouteOptions = Pick<ServerOptions, 'allowedHosts' | 'maxBodyBytes'>;

/** What the routes share: the access check, both eras' handlers, and the observer of each request. */
export interface Parts {
  auth: RequestHandler;
  /** The client tag and its share (fair-share.ts): one count for /docs and the search page (serve/app.ts). */
  shares: RequestHandler[];
  legacy: LegacySessions;
  stateless: Stateless;
  observer: RequestObserver;
}

/**
 * Whether a parsed POST is 2025-era traffic, decided as the SDK's isLegacyRequest decides it (a
 * body that is not JSON is legacy; otherwise the SDK's own classifier, on the body and the three
 * MCP headers, which is all isLegacyRequest reads) but without the web Request that predicate
 * takes: building one (toWebRequest) for every POST cost 2-3 % of the main thread's time per call
 * (CPU profile at 8 sessions, docs/benchmarks.md, the protocol path).
 */
export function isLegacyPost(header: (name: string) => string | undefined, body: unknown): boolean {
  if (body === undefined) return true;
  const protocolVersionHeader = header('mcp-protocol-version');
  const mcpMethodHeader = header('mcp-method');
  const mcpNameHeader = header('mcp-name');
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
    ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
    ...(mcpNameHeader === undefined ? {} : { mcpNameHeader }),
    body,
  });
  return outcome.kind === 'legacy';
}

export function mcpRoutes(
  app: Express,
  options: RouteOptions,
  { auth, shares, legacy, stateless, observer }: Parts,
): void {
  app.use(MCP_PATHS, hostGuard(options.allowedHosts), preflight, auth, ...shares);
  app.post(MCP_PATHS, ...jsonBody(options.maxBodyBytes), async (req: Request, res: Response) => {
    const body: unknown = req.body;
    const modern = !isLegacyPost((name) => req.header(name), body);
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
