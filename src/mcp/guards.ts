import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { bearerMatches, hostAllowed, originAllowed, tokenDigest } from './access.js';
import { refuse } from './errors.js';

/**
 * Who may reach the MCP endpoint and the readiness details, as Express middleware: the Origin
 * and Host allow-lists (DNS rebinding) and the bearer token. The checks themselves are the pure
 * functions of access.ts.
 */

/** Browsers send Origin; a page on another site must not reach a local server. */
export function originGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    if (!originAllowed(origin, allowedOrigins)) {
      refuse(res, 403, `Forbidden: Origin ${origin} is not allowed. Add it to SVC_DOCS_ALLOWED_ORIGINS if this browser client is trusted.`);
      return;
    }
    next();
  };
}

export function hostGuard(allowedHosts: readonly string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hostAllowed(req.header('host'), allowedHosts)) {
      refuse(res, 403, `Forbidden: Host ${req.header('host') ?? '(none)'} is not allowed. Add the name clients use to SVC_DOCS_ALLOWED_HOSTS.`);
      return;
    }
    next();
  };
}

/** Requires `Authorization: Bearer <token>` when the server has a token; passes everything otherwise. */
export function tokenGuard(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : tokenDigest(token);
  return (req: Request, res: Response, next: NextFunction) => {
    if (expected && !bearerMatches(req.header('authorization'), expected)) {
      const given = req.header('authorization') !== undefined;
      refuse(res, 401, 'Unauthorized: send the header "Authorization: Bearer <token>" with the token the server was started with (SVC_DOCS_AUTH_TOKEN).', -32000, {
        'WWW-Authenticate': given ? 'Bearer realm="svc-docs", error="invalid_token"' : 'Bearer realm="svc-docs"',
      });
      return;
    }
    next();
  };
}

/**
 * A request must name its target as a path ("POST /docs"), not an absolute URL ("POST
 * http://evil.example/docs", which a proxy might route elsewhere than its Host says), and carry
 * exactly one Host header (Node keeps only the first of several, which another hop may not).
 */
export function requestShapeGuard(req: Request, res: Response, next: NextFunction): void {
  if (!req.url.startsWith('/')) {
    refuse(res, 400, 'Bad Request: send the request target as a path (e.g. POST /docs), not an absolute URL.');
    return;
  }
  if ((req.headersDistinct.host?.length ?? 0) > 1) {
    refuse(res, 400, 'Bad Request: the request has more than one Host header.');
    return;
  }
  next();
}
