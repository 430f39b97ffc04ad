import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { clientKey, type ProxyTrust } from '../../http/client-identity.js';
import { refuse, RpcCode } from '../../http/refuse.js';
import type { Log } from '../../observe/log.js';

/**
 * Fair shares: no client (http/client-identity.ts) may take the server's capacity from the others. Each
 * request is tagged with its client (res.locals, and as the MCP SDK's authInfo.clientId so a tool
 * knows who asked), and a client runs at most `maxRequestsPerClient` requests at once, counting
 * those whose answers it has not read yet; beyond that it gets 429 with Retry-After. Sessions per
 * client are bounded where sessions are opened (legacy-sessions.ts).
 */

/** What the auth guard leaves for this module: the verified OAuth subject, when there is one. */
export interface ClientLocals {
  subject?: string;
  client?: string;
}

/** The client a request was tagged with (clientTag runs before every MCP route). */
export function clientKeyOf(res: Response): string {
  return (res.locals as ClientLocals).client ?? 'unknown';
}

/** Tags the request with its client: for the limits here, and for the SDK to hand to tools. */
export function clientTag(trust: ProxyTrust): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const locals = res.locals as ClientLocals;
    locals.client = clientKey(req, trust, locals.subject);
    // The SDK passes req.auth to every handler as authInfo; the token itself is not needed there.
    (req as Request & { auth?: unknown }).auth = { token: '', clientId: locals.client, scopes: [] };
    next();
  };
}

/** Bounds the requests one client runs at once (its POSTs; GET streams are bounded by its sessions). */
export function requestShare(maxRequestsPerClient: number, event: Log): RequestHandler {
  const running = new Map<string, number>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const client = clientKeyOf(res);
    const count = running.get(client) ?? 0;
    if (count >= maxRequestsPerClient) {
      event({ level: 'warn', event: 'client-requests-full', clientKey: client, max: maxRequestsPerClient });
      refuse(
        res,
        429,
        `Too Many Requests: this client already has ${maxRequestsPerClient} requests running or unread. Read their answers, then retry.`,
        RpcCode.ServerError,
        { 'Retry-After': '1' },
      );
      return;
    }
    running.set(client, count + 1);
    res.once('close', () => {
      const left = (running.get(client) ?? 1) - 1;
      if (left > 0) running.set(client, left);
      else running.delete(client);
    });
    next();
  };
}
