import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { bearerMatches, tokenDigest } from '../http/access.js';
import { refuse } from '../http/refuse.js';
import type { ServerMetrics } from './metrics.js';

/**
 * GET /metrics: the Prometheus text exposition. Behind the Host check and the server's token (as
 * /readyz), or a token of its own: with SVC_DOCS_METRICS_TOKEN set, a scraper holding only that
 * token is let in, and a server without other credentials still requires it here.
 */

export const METRICS_PATH = '/metrics';

export function metricsAuth(
  metricsToken: string | undefined,
  auth: RequestHandler,
  serverHasCredentials: boolean,
): RequestHandler {
  if (metricsToken === undefined) return auth;
  const expected = tokenDigest(metricsToken);
  return (req: Request, res: Response, next: NextFunction) => {
    if (bearerMatches(req.header('authorization'), expected)) return next();
    if (serverHasCredentials) return auth(req, res, next);
    refuse(
      res,
      401,
      'Unauthorized: send "Authorization: Bearer <token>" with the metrics token the server was started with (SVC_DOCS_METRICS_TOKEN).',
      undefined,
      { 'WWW-Authenticate': 'Bearer realm="svc-docs-metrics"' },
    );
  };
}

export function metricsRoute(app: Express, guards: RequestHandler[], metrics: ServerMetrics): void {
  app.get(METRICS_PATH, ...guards, async (_req: Request, res: Response) => {
    const { contentType, text } = await metrics.exposition();
    res.set({ 'Content-Type': contentType, 'Cache-Control': 'no-store' }).send(text);
  });
}
