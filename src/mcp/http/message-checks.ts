import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { refuse, RpcCode } from '../../http/refuse.js';
import { record } from '../../record.js';

/**
 * Checks on the parsed JSON-RPC body that the SDK does not make, for both eras: JSON-RPC batches
 * (batching left MCP in 2025-06-18; one batch of 100 page reads or searches would block the event
 * loop and answer 100 times the budget), tool names that are Object.prototype keys (the SDK
 * looks tools up in a plain object, so "__proto__" would read as a disabled tool), and the params
 * of logging/setLevel and tools/call, which the SDK refuses with its validator's raw dump.
 */

interface RpcMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; _meta?: unknown };
}

const isMessage = (value: unknown): value is RpcMessage => record(value) !== undefined;

const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Messages at most in one 2025-era batch. */
const MAX_BATCH_MESSAGES = 16;

/**
 * What a 2025-era batch may hold: messages whose answers are small and of fixed size. Everything
 * that returns documentation (tools/call, resources/read, resources/list, prompts/get, completion)
 * is sent one per request, where the response budget and the per-client limits apply.
 */
const BATCHABLE_METHODS = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'tools/list',
  'prompts/list',
  'resources/templates/list',
]);

/** A response (no method) or a notification is cheap; a request only when its method is. */
function batchable(message: RpcMessage): boolean {
  if (typeof message.method !== 'string') return true;
  return message.method.startsWith('notifications/') || BATCHABLE_METHODS.has(message.method);
}

const MODERN_ENVELOPE_KEY = 'io.modelcontextprotocol/protocolVersion';
const FIRST_MODERN_VERSION = '2026-07-28';

/** A 2026-07-28 (or later) message: the version header says so, or a message carries the envelope. */
function isModern(req: Request, batch: unknown[]): boolean {
  const version = req.header('mcp-protocol-version');
  if (version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_VERSION) return true;
  return batch.some((m) => isMessage(m) && isMessage(m.params?._meta) && MODERN_ENVELOPE_KEY in m.params._meta);
}

function batchRefusal(req: Request, batch: unknown[]): string | undefined {
  if (isModern(req, batch))
    return 'Invalid Request: JSON-RPC batches are not accepted in protocol revision 2026-07-28: send one message per request.';
  const costly = batch.find((m) => isMessage(m) && !batchable(m)) as RpcMessage | undefined;
  if (costly !== undefined)
    return `Invalid Request: a JSON-RPC batch may not hold ${String(costly.method).slice(0, 64)} (MCP dropped batching in 2025-06-18): send tools/call, resources/read and other reads one per request.`;
  if (batch.length > MAX_BATCH_MESSAGES)
    return `Invalid Request: a JSON-RPC batch holds at most ${MAX_BATCH_MESSAGES} messages (MCP dropped batching in 2025-06-18): send fewer, or one per request.`;
  return undefined;
}

/** Refuses a JSON-RPC batch unless it is 2025-era, short, and holds only cheap messages. */
export function batchRules(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  const refusal = Array.isArray(body) ? batchRefusal(req, body) : undefined;
  if (refusal !== undefined) return refuse(res, 400, refusal, RpcCode.InvalidRequest);
  next();
}

const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** What the SDK checks these methods' params against, and the one line a client gets when they fail. */
const PARAMS_RULES: Record<string, { schema: z.ZodType; expected: string }> = {
  'logging/setLevel': {
    schema: z.looseObject({ level: z.enum(LOGGING_LEVELS) }),
    expected: `logging/setLevel takes {"level": …}, one of ${LOGGING_LEVELS.join(', ')}`,
  },
  'tools/call': {
    schema: z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
    expected:
      'tools/call takes {"name": "<tool>", "arguments": {…}}, its arguments an object such as {"searchTerm": "webhook signature"}',
  },
};

/** The JSON-RPC error -32602 answering `message` (HTTP 200, as the SDK answers a request it read). */
function invalidParams(res: Response, { id }: RpcMessage, error: string): void {
  const answered = typeof id === 'string' || typeof id === 'number' ? id : null;
  res.status(200).json({ jsonrpc: '2.0', id: answered, error: { code: RpcCode.InvalidParams, message: error } });
}

/** The params a message's method needs, when they are wrong: one line saying what it takes. */
function paramsProblem(message: unknown, modern: boolean): string | undefined {
  if (!isMessage(message) || typeof message.method !== 'string') return undefined;
  const rule = PARAMS_RULES[message.method];
  // logging/setLevel is not a method of 2026-07-28: the SDK answers that as it is.
  if (rule === undefined || (modern && message.method === 'logging/setLevel')) return undefined;
  return rule.schema.safeParse(message.params).success ? undefined : `Invalid params: ${rule.expected}.`;
}

/** Answers bad logging/setLevel and tools/call params with one clear line (-32602), not the SDK's validation dump. */
export function paramsRules(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  const messages = Array.isArray(body) ? body : [body];
  const modern = isModern(req, messages);
  const problem = messages.map((m) => paramsProblem(m, modern)).find((p) => p !== undefined);
  if (problem === undefined) return next();
  if (Array.isArray(body)) return refuse(res, 400, problem, RpcCode.InvalidParams);
  invalidParams(res, body as RpcMessage, problem);
}

/** Answers a tools/call naming an Object.prototype key as what it is: a tool that does not exist. */
export function unknownPrototypeTools(req: Request, res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  const name = isMessage(body) && body.method === 'tools/call' ? body.params?.name : undefined;
  if (typeof name === 'string' && PROTOTYPE_KEYS.has(name))
    return invalidParams(res, body as RpcMessage, `Tool ${name} not found`);
  next();
}
