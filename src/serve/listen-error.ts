import { createServer } from 'node:net';
import { SvcDocsError } from '../errors.js';

/**
 * Why a server cannot listen, and what to change: for the HTTP server's bind, and for `serve`'s
 * check before it builds an index (a port in use is then said in a second, not after the build).
 */

/** The explanation of a bind failure; the system's error is its `cause` (its `code` says which). */
export function listenError(error: NodeJS.ErrnoException, where: string): Error {
  const explained: Record<string, string> = {
    EADDRINUSE: `port ${where} is already in use: stop the other process or choose another port (--port / SVC_DOCS_PORT)`,
    EACCES: `not allowed to listen on ${where}: use a port above 1023 (--port / SVC_DOCS_PORT)`,
    EADDRNOTAVAIL: `cannot listen on ${where}: this machine has no such address (--host / SVC_DOCS_HOST)`,
  };
  const message = explained[error.code ?? ''];
  return message === undefined ? error : new SvcDocsError('listen_failed', message, { cause: error });
}

/**
 * Binds `host:port` and lets go at once: rejects as the server's own bind would. Port 0 (any free
 * one) always binds. Another process can still take the port between this check and the bind;
 * the server's bind then says so as before.
 */
export function checkCanListen(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  const probe = createServer();
  return new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, `${host}:${port}`)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
