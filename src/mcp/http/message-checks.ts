import type { NextFunction, Request, Response } from 'express';
import { refuse, RpcCode } from './errors.js';

/**
 * Checks on the parsed JSON-RPC body that the SDK does not make, for both eras: batches that
 * carry tool calls (batching left MCP in 2025-06-18, and one batch of 100 searches would block the
 * event loop and answer 100 times the response budget), and tool names that are Object.prototype
 * keys (the SDK looks tools up in a plain object, so "__proto__" would read as a disabled tool).
 */

interface RpcMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown };
}

function isMessage(value: unknown): value is RpcMessage {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Refuses a JSON-RPC batch holding a tools/call; batches of other messages are left to the SDK. */
export function refuseToolCallBatches(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (Array.isArray(body) && body.some((m) => isMessage(m) && m.method === 'tools/call')) {
    refuse(
      res,
      400,
      'Invalid Request: JSON-RPC batches of tool calls are not accepted (MCP dropped batching in 2025-06-18): send one tools/call per request.',
      RpcCode.InvalidRequest,
    );
    return;
  }
  next();
}

/** Answers a tools/call naming an Object.prototype key as what it is: a tool that does not exist. */
export function unknownPrototypeTools(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (
    isMessage(body) &&
    body.method === 'tools/call' &&
    typeof body.params?.name === 'string' &&
    PROTOTYPE_KEYS.has(body.params.name)
  ) {
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    res.status(200).json({
      jsonrpc: '2.0',
      id,
      error: { code: RpcCode.InvalidParams, message: `Tool ${body.params.name} not found` },
    });
    return;
  }
  next();
}
