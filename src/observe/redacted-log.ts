import { redactSecrets } from '../http/redact.js';
import type { LogLine } from './log.js';

/**
 * A sink that never receives a secret: the server's tokens (in every encoding a line could carry
 * them) and anything shaped like a JWT are replaced before a line reaches it, in time linear in the
 * line (src/http/redact.ts). Every log line and every query-store record passes through one of these.
 */
export function secretFree(sink: LogLine, secrets: readonly (string | undefined)[]): LogLine {
  const known = secrets.filter((secret): secret is string => secret !== undefined);
  return (line) => sink(redactSecrets(line, known));
}
