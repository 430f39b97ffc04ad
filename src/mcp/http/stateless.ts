import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, legacyStatelessFallback, type McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { refuse, RpcCode } from '../../http/refuse.js';
import type { Log } from '../../observe/log.js';
import { onWaitingForReader } from './write-timeout.js';

/**
 * The exchanges that hold no session: every 2026-07-28 request (createMcpHandler, stateless by
 * design) and a 2025-era request that arrives without Mcp-Session-Id and is not an initialize
 * (clients that drop the header get a one-shot answer instead of 400). Each gets a fresh server
 * from the same factory. The number running at once is capped like sessions are: they hold
 * memory the same way. An exchange stops counting once its answer only waits on its reader
 * (write-timeout.ts closes it if the reader never comes).
 */

interface StatelessOptions {
  /** Exchanges running at once at most; beyond it, 503 with Retry-After. */
  maxConcurrent: number;
  maxBodyBytes: number;
  newServer: () => McpServer;
  event: Log;
}

export interface Stateless {
  modern(req: Request, res: Response, body: unknown): Promise<void>;
  legacyOneShot(req: Request, res: Response, body: unknown): Promise<void>;
  running(): number;
  close(): Promise<void>;
}

export function statelessExchanges(options: StatelessOptions): Stateless {
  const { event } = options;
  const onerror = (error: Error) => event({ level: 'warn', event: 'mcp-error', error: error.message });
  // Legacy traffic never reaches this handler (the router sends it to sessions or to the one-shot
  // fallback), so it is strict: what it gets is modern or answered with the modern errors.
  const modernHandler = createMcpHandler(() => options.newServer(), {
    legacy: 'reject',
    onerror,
    maxRequestBodySize: options.maxBodyBytes,
    maxSubscriptions: options.maxConcurrent,
  });
  const modern = toNodeHandler(modernHandler, { onerror, maxRequestBodySize: options.maxBodyBytes });
  const oneShot = toNodeHandler(
    {
      fetch: legacyStatelessFallback(() => options.newServer(), onerror, { maxRequestBodySize: options.maxBodyBytes }),
    },
    { onerror },
  );
  let running = 0;

  const capped = (handler: typeof modern) => async (req: Request, res: Response, body: unknown) => {
    if (running >= options.maxConcurrent) {
      event({ level: 'warn', event: 'exchanges-full', max: options.maxConcurrent });
      return refuse(
        res,
        503,
        `Service Unavailable: ${options.maxConcurrent} requests are already running. Retry in a second.`,
        RpcCode.ServerError,
        { 'Retry-After': '1' },
      );
    }
    running++;
    // Counted while it works: an answer waiting on a client that does not read holds no slot.
    let counted = true;
    const release = () => {
      if (counted) running--;
      counted = false;
    };
    onWaitingForReader(res, release);
    try {
      await handler(req, res, body);
    } finally {
      release();
    }
  };

  return {
    modern: capped(modern),
    legacyOneShot: capped(oneShot),
    running: () => running,
    close: () => modernHandler.close(),
  };
}
