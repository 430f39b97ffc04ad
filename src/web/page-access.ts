import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { tokenDigest } from '../http/access.js';

/**
 * Who may open the search page: whoever may call /docs. A browser cannot send a bearer token, so
 * with a static token the page also takes HTTP Basic credentials whose password is that token
 * (any user name), and asks the browser for them. Bearer requests (and OAuth) go to the server's
 * own check.
 */

const BASIC = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;

/** Whether a Basic Authorization header's password is the token (compared as digests, in constant time). */
export function basicPasswordMatches(authorization: string | undefined, expected: Buffer): boolean {
  const encoded = BASIC.exec(authorization ?? '')?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return timingSafeEqual(tokenDigest(password), expected) && colon >= 0;
}

export function pageAuth(token: string | undefined, auth: RequestHandler): RequestHandler {
  if (token === undefined) return auth;
  const expected = tokenDigest(token);
  return (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.header('authorization');
    if (basicPasswordMatches(authorization, expected)) return next();
    if (/^Bearer[ \t]/i.test(authorization ?? '')) return auth(req, res, next);
    res
      .status(401)
      .set({
        'WWW-Authenticate': 'Basic realm="svc-docs", charset="UTF-8"',
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      })
      .send('This server requires its token: sign in with any user name and the token as the password.\n');
  };
}
