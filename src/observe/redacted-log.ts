import { redacting } from '../mcp/http/request-log.js';
import { redactingJwts } from '../mcp/oauth/redact.js';
import type { LogLine } from './log.js';

/**
 * A sink that never receives a secret: the server's tokens (in every encoding a line could carry
 * them) and anything shaped like a JWT are replaced before a line reaches it. Every log line and
 * every query-store record passes through one of these.
 */
export function secretFree(sink: LogLine, secrets: readonly (string | undefined)[]): LogLine {
  return secrets.reduce<LogLine>((out, secret) => redacting(out, secret), redactingJwts(sink));
}
