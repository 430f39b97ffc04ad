import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { clientKey, type ProxyTrust } from '../../http/client-identity.js';
import { refuse, RpcCode } from '../../http/refuse.js';
import type { Log } from '../../observe/log.js';

/**
 * Fair shares: no client (http/client-identity.ts) may take the server's capacity from the others. Each
 * request is tagged with its client (res.locals, and as the MCP SDK's authInfo.clientId so a tool
 * knows who asked), and a client runs at most `maxRequestsPerClient` requests at once, counting
 * those whose answers it has not read yet, its server-to-client streams (GET with a session) and
 * its search page requests, all together; beyond that it gets 429 with Retry-After. Streams take
 * at most half the share, so a client holding streams can still send requests. (Ten addresses'
 * worth of sessions, 100 each, could otherwise each hold a stream: issue 40.) Sessions per client
 * are bounded where sessions are opened (legacy-sessions.ts).
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

/** What one client holds open now. */
interface Held {
  requests: number;
  streams: number;
}

/**
 * Bounds what one client runs at once: POSTs, GETs (a session's stream, a search page) and
 * DELETEs are not counted. One handler serves every route that shares the bound.
 */
export function requestShare(maxRequestsPerClient: number, event: Log): RequestHandler {
  const held = new Map<string, Held>();
  const maxStreams = Math.max(1, Math.floor(maxRequestsPerClient / 2));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' && req.method !== 'GET') return next();
    const client = clientKeyOf(res);
    const now = held.get(client) ?? { requests: 0, streams: 0 };
    const stream = req.method === 'GET' && req.header('mcp-session-id') !== undefined;
    if (now.requests + now.streams >= maxRequestsPerClient || (stream && now.streams >= maxStreams)) {
      event({ level: 'warn', event: 'client-requests-full', clientKey: client, max: maxRequestsPerClient });
      const what = stream ? `${maxStreams} streams open` : `${maxRequestsPerClient} requests running or unread`;
      return refuse(
        res,
        429,
        `Too Many Requests: this client already has ${what}. Read their answers, then retry.`,
        RpcCode.ServerError,
        {
          'Retry-After': '1',
        },
      );
    }
    const kind = stream ? 'streams' : 'requests';
    now[kind]++;
    held.set(client, now);
    res.once('close', () => {
      now[kind]--;
      if (now.requests + now.streams === 0) held.delete(client);
    });
    next();
  };
}
