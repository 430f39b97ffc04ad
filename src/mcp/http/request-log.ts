import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Log, LogEntry } from '../../observe/log.js';

/**
 * The operator log: one JSON line per request and per notable event, never showing the token.
 */

export function writeLine(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Which session a response belongs to when the request did not name one (initialize). */
export type SessionOfResponse = WeakMap<IncomingMessage | ServerResponse, string>;

/** Completes a request's line when it ends (the MCP method, tool, client, search: src/observe). */
export type FinishRequestLine = (res: Response, entry: LogEntry) => LogEntry;

/** One line per request when it ends: method, path (never the query), status, session, latency. */
export function requestLog(event: Log, sessionOf: SessionOfResponse, finish: FinishRequestLine = (_, e) => e) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    // Captured now: mounted routers rewrite req.url while they run.
    const path = req.path;
    res.once('close', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const session = req.header('mcp-session-id') ?? sessionOf.get(res);
      const entry: LogEntry = {
        event: 'request',
        method: req.method,
        path,
        status: res.statusCode,
        ...(session ? { session } : {}),
        ms: Math.round(ms * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      event(finish(res, entry));
    });
    next();
  };
}
