import type { Response } from 'express';

/**
 * Refusals as HTTP status plus a JSON-RPC error body (the shape the SDK also uses for
 * transport-level refusals). Shared by the MCP routes, /metrics and the app's error handler
 * (serve/error-handler.ts), so it sits below all of them and imports nothing of theirs.
 */

/** JSON-RPC codes this layer answers with; the SDK answers the protocol's own. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Transport-level refusal (the SDK's convention for HTTP errors). */
  ServerError: -32000,
  SessionNotFound: -32001,
} as const;

export function refuse(
  res: Response,
  status: number,
  message: string,
  code: number = RpcCode.ServerError,
  headers: Record<string, string> = {},
): void {
  res.status(status).set(headers).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
