import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { originAllowed } from './access.js';

/**
 * CORS for the browser origins SVC_DOCS_ALLOWED_ORIGINS trusts (others were already refused with
 * 403): the preflight is answered, including the MCP headers a browser client sends, and responses
 * name the origin and expose the headers the client must read.
 */

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID';
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, Retry-After';

/** Adds the CORS response headers for an allowed Origin. */
export function corsHeaders(allowedOrigins: readonly string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    res.vary('Origin');
    if (origin !== undefined && originAllowed(origin, allowedOrigins)) {
      res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
    }
    next();
  };
}

/** Answers OPTIONS (a CORS preflight carries no token, so this runs before the token check). */
export function preflight(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'OPTIONS') return next();
  res.set({
    Allow: ALLOWED_METHODS,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
  });
  res.status(204).end();
}
