import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { bearerMatches, bearerTokenOf, hostAllowed, originAllowed, tokenDigest } from '../../http/access.js';
import { RpcCode, refuse } from '../../http/refuse.js';
import { bearerChallenge, resourceFor } from '../oauth/metadata.js';
import type { OAuthConfig } from '../../settings/oauth-config.js';
import { KeysUnavailableError } from '../oauth/jwks.js';
import { TokenRefusedError, type TokenVerifier } from '../oauth/verify.js';
import type { ClientLocals } from './fair-share.js';
import type { Log } from '../../observe/log.js';

/**
 * Who may reach the MCP endpoint and the readiness details, as Express middleware: the Origin
 * and Host allow-lists (DNS rebinding) and the bearer token (static, or an OAuth access token).
 * The checks themselves are the pure functions of http/access.ts and oauth/verify.ts.
 */

/** Browsers send Origin; a page on another site must not reach a local server. */
export function originGuard(allowedOrigins: readonly string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.header('origin');
    if (!originAllowed(origin, allowedOrigins))
      return refuse(
        res,
        403,
        `Forbidden: Origin ${origin} is not allowed. Add it to SVC_DOCS_ALLOWED_ORIGINS if this browser client is trusted.`,
      );
    next();
  };
}

export function hostGuard(allowedHosts: readonly string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hostAllowed(req.header('host'), allowedHosts))
      return refuse(
        res,
        403,
        `Forbidden: Host ${req.header('host') ?? '(none)'} is not allowed. Add the name clients use to SVC_DOCS_ALLOWED_HOSTS.`,
      );
    next();
  };
}

/** The OAuth resource-server mode, when configured: its settings and its token check. */
export interface OAuthAccess {
  config: OAuthConfig;
  verifier: TokenVerifier;
  /** The alias path (/mcp): requests to it are for the alias resource. */
  aliasPath: string;
}

/**
 * Requires a bearer token when the server has one (a static token, OAuth, or both: either is
 * accepted); passes everything otherwise. With OAuth, a refusal names the metadata document so
 * clients can discover the authorization server: 401 without a valid token, 403 without the
 * scope, 503 when the issuer's keys cannot be fetched.
 */
export function authGuard(token: string | undefined, oauth: OAuthAccess | undefined, event: Log): RequestHandler {
  const expected = token === undefined ? undefined : tokenDigest(token);
  return async (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.header('authorization');
    if (expected === undefined && oauth === undefined) return next();
    if (expected !== undefined && bearerMatches(authorization, expected)) return next();
    if (oauth === undefined)
      return refuse(
        res,
        401,
        'Unauthorized: send the header "Authorization: Bearer <token>" with the token the server was started with (SVC_DOCS_AUTH_TOKEN).',
        RpcCode.ServerError,
        {
          'WWW-Authenticate':
            authorization !== undefined ? 'Bearer realm="svc-docs", error="invalid_token"' : 'Bearer realm="svc-docs"',
        },
      );
    const bearer = bearerTokenOf(authorization);
    // A header that is not "Bearer <token>" is a token refused, not a missing one.
    let refusal = authorization === undefined ? undefined : new TokenRefusedError('malformed');
    if (bearer !== undefined) {
      try {
        const { subject } = await oauth.verifier.verify(bearer);
        // Fair shares count a verified user as one client wherever it connects from (fair-share.ts).
        if (subject !== undefined) (res.locals as ClientLocals).subject = subject;
        return next();
      } catch (error) {
        if (error instanceof KeysUnavailableError) {
          event({ level: 'error', event: 'oauth-keys-unavailable', error: error.message });
          refuse(
            res,
            503,
            "Service Unavailable: the server cannot fetch its authorization server's signing keys right now; retry shortly.",
            RpcCode.ServerError,
            { 'Retry-After': '5' },
          );
          return;
        }
        if (!(error instanceof TokenRefusedError)) throw error;
        refusal = error;
      }
    }
    if (refusal !== undefined) event({ level: 'warn', event: 'token-refused', reason: refusal.reason });
    challenge(req, res, oauth, refusal);
  };
}

/** 401 (no token, or an invalid one) or 403 (the scope is missing), naming the metadata document. */
function challenge(req: Request, res: Response, oauth: OAuthAccess, refusal: TokenRefusedError | undefined): void {
  const { config } = oauth;
  const resource = resourceFor(config, req.baseUrl || req.path, oauth.aliasPath);
  const forbidden = refusal?.code === 'insufficient_scope';
  const what = refusal === undefined ? 'send "Authorization: Bearer <access token>"' : refusal.message;
  refuse(
    res,
    forbidden ? 403 : 401,
    `${forbidden ? 'Forbidden' : 'Unauthorized'}: ${what}. This server accepts access tokens from ${config.issuer} for ${resource} with the scope "${config.scope}".`,
    RpcCode.ServerError,
    { 'WWW-Authenticate': bearerChallenge(config, resource, refusal?.code) },
  );
}

/**
 * A request must name its target as a path ("POST /docs"), not an absolute URL ("POST
 * http://evil.example/docs", which a proxy might route elsewhere than its Host says), and carry
 * exactly one Host header (Node keeps only the first of several, which another hop may not).
 */
export function requestShapeGuard(req: Request, res: Response, next: NextFunction): void {
  if (!req.url.startsWith('/'))
    return refuse(res, 400, 'Bad Request: send the request target as a path (e.g. POST /docs), not an absolute URL.');
  if ((req.headersDistinct.host?.length ?? 0) > 1)
    return refuse(res, 400, 'Bad Request: the request has more than one Host header.');
  next();
}
