import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { refuse, RpcCode } from '../../http/refuse.js';
import { batchRules, paramsRules, unknownPrototypeTools } from './message-checks.js';

/**
 * Reading a POST body: JSON only, within the size limit, and not an empty batch. Both protocol
 * eras get the body parsed here, so one limit and one set of answers hold for both.
 */

function requireJson(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json'))
    return refuse(res, 415, 'Unsupported Media Type: send JSON-RPC with Content-Type: application/json');
  next();
}

/** Nesting deeper than any MCP message needs; deeper JSON overflowed the stack of the SDK's validation (500). */
const MAX_JSON_DEPTH = 64;

/** How deep `value` nests arrays and objects, counted without recursion and up to `limit` + 1. */
function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function refuseDeepJson(req: Request, res: Response, next: NextFunction): void {
  if (jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    return refuse(
      res,
      400,
      `Invalid Request: the JSON nests more than ${MAX_JSON_DEPTH} levels deep; no MCP message needs that many.`,
      RpcCode.InvalidRequest,
    );
  next();
}

function refuseEmptyBatch(req: Request, res: Response, next: NextFunction): void {
  // JSON-RPC 2.0: an empty batch is an invalid request, not nothing to acknowledge with 202.
  if (Array.isArray(req.body) && req.body.length === 0)
    return refuse(
      res,
      400,
      'Invalid Request: the JSON-RPC batch is empty; send at least one message',
      RpcCode.InvalidRequest,
    );
  next();
}

/** The middleware chain in front of every MCP POST. */
export function jsonBody(maxBodyBytes: number): RequestHandler[] {
  return [
    requireJson,
    express.json({ limit: maxBodyBytes, strict: false }),
    refuseDeepJson,
    refuseEmptyBatch,
    batchRules,
    paramsRules,
    unknownPrototypeTools,
  ];
}
