import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Log } from '../../observe/log.js';

/**
 * No response is held for a client that does not read it. Once a response has more to send than
 * the socket takes (a write returned false, or end() left bytes unsent), it waits on its reader:
 * whoever counts running exchanges is told (onWaitingForReader), so a client that never reads
 * holds no share of the server's capacity; and if nothing more is taken within the write timeout,
 * the connection is closed, which ends the exchange and frees what its answer held. A reader that
 * keeps taking bytes, however slowly, restarts the timeout each time the buffer drains.
 */

const waiters = new WeakMap<ServerResponse, (() => void)[]>();

/** Calls `fn` once, the first time `res` waits on its reader; never if it is sent without waiting. */
export function onWaitingForReader(res: ServerResponse, fn: () => void): void {
  const list = waiters.get(res);
  if (list) list.push(fn);
  else waiters.set(res, [fn]);
}

function waiting(res: ServerResponse): void {
  const list = waiters.get(res);
  waiters.delete(res);
  for (const fn of list ?? []) fn();
}

export function writeTimeout(timeoutMs: number, event: Log): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let timer: NodeJS.Timeout | undefined;
    const disarm = () => {
      clearTimeout(timer);
      timer = undefined;
    };
    const arm = () => {
      if (timer !== undefined || res.destroyed) return;
      waiting(res);
      timer = setTimeout(() => {
        event({ level: 'warn', event: 'write-timeout', method: req.method, unsent: res.writableLength });
        res.destroy();
      }, timeoutMs);
      timer.unref();
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      const flushed = write(...args);
      if (!flushed) arm();
      return flushed;
    }) as Response['write'];
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const result = end(...args);
      if (!res.writableFinished && res.writableLength > 0) arm();
      return result;
    }) as Response['end'];
    res.on('drain', disarm);
    res.once('finish', disarm);
    res.once('close', () => {
      disarm();
      waiters.delete(res);
    });
    next();
  };
}
