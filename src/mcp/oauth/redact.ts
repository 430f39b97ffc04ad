import type { LogLine } from '../../observe/log.js';

/**
 * A log that never shows an OAuth access token, even where a client put one by mistake (as a
 * session id, in the URL path). Unlike the static token, access tokens are not known in advance:
 * anything shaped like a JWT (three base64url parts, the first starting with `eyJ`, i.e. `{"`) is
 * replaced.
 */

const JWT_SHAPED = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;

export function redactingJwts(log: LogLine): LogLine {
  return (line) => log(line.replace(JWT_SHAPED, '[redacted]'));
}
