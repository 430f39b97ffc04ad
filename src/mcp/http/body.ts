import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { refuse, RpcCode } from './errors.js';
import { batchRules, unknownPrototypeTools } from './message-checks.js';

/**
 * Reading a POST body: JSON only, within the size limit, and not an empty batch. Both protocol
 * eras get the body parsed here, so one limit and one set of answers hold for both.
 */

function requireJson(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    refuse(res, 415, 'Unsupported Media Type: send JSON-RPC with Content-Type: application/json');
    return;
  }
  next();
}

function refuseEmptyBatch(req: Request, res: Response, next: NextFunction): void {
  // JSON-RPC 2.0: an empty batch is an invalid request, not nothing to acknowledge with 202.
  if (Array.isArray(req.body) && req.body.length === 0) {
    refuse(res, 400, 'Invalid Request: the JSON-RPC batch is empty; send at least one message', RpcCode.InvalidRequest);
    return;
  }
  next();
}

/** The middleware chain in front of every MCP POST. */
export function jsonBody(maxBodyBytes: number): RequestHandler[] {
  return [
    requireJson,
    express.json({ limit: maxBodyBytes, strict: false }),
    refuseEmptyBatch,
    batchRules,
    unknownPrototypeTools,
  ];
}
