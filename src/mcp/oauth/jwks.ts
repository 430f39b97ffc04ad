import { readFileSync } from 'node:fs';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { codedError, SvcDocsError } from '../../errors.js';

type Jose = typeof import('jose');

/**
 * The issuer's signing keys (a JWKS), from its URL or a local file, within bounds: at most
 * MAX_JWKS_BYTES and MAX_JWKS_KEYS (a 30 MB key set stalled the server for seconds while it was
 * parsed), and, when the issuer cannot be reached once the keys are due for a refresh, the last
 * keys it published keep verifying tokens for KEYS_GRACE_MS while the server tries again at most
 * every RETRY_MS (an outage of the issuer turned every valid token into 503 after 10 minutes).
 */

const MAX_JWKS_BYTES = 512 * 1024;
const MAX_JWKS_KEYS = 100;
/** How long the last keys fetched stay usable while the issuer cannot be reached. */
const KEYS_GRACE_MS = 60 * 60_000;
/** While the last keys stand in, the issuer is asked again at most this often (no request waits on it meanwhile). */
const RETRY_MS = 30_000;
/** How long a fetch of the issuer's keys may take before the request gets 503. */
const JWKS_TIMEOUT_MS = 5000;
/** Keys older than this are fetched again (jose's default). */
const CACHE_MAX_AGE_MS = 10 * 60_000;

export interface KeyTimings {
  cacheMaxAgeMs: number;
  graceMs: number;
  retryMs: number;
}

const DEFAULT_TIMINGS: KeyTimings = { cacheMaxAgeMs: CACHE_MAX_AGE_MS, graceMs: KEYS_GRACE_MS, retryMs: RETRY_MS };

/** The issuer's keys cannot be fetched: not the client's fault, so 503 rather than 401. */
export class KeysUnavailableError extends SvcDocsError<'keys_unavailable'> {
  override name = 'KeysUnavailableError';

  constructor(url: string, cause: unknown) {
    super(
      'keys_unavailable',
      `cannot fetch the OAuth signing keys from ${url} (${describeCause(cause)}): check that the authorization server is up and SVC_DOCS_OAUTH_JWKS_URL is right`,
    );
  }
}

/** A JWKS file that cannot be used; raised at startup. */
export class JwksFileError extends codedError('JwksFileError', 'jwks_file') {}

/** A key set over the bounds, from the issuer or a file. */
class KeySetTooBigError extends Error {
  constructor(what: string) {
    super(`the key set ${what}; a JWKS holds a few keys`);
    this.name = 'KeySetTooBigError';
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner =
    cause.cause instanceof Error ? ((cause.cause as NodeJS.ErrnoException).code ?? cause.cause.message) : undefined;
  return inner === undefined ? cause.message : `${cause.message}: ${inner}`;
}

/** The keys of a parsed JWKS document, or undefined when it is not one; too many keys is an error. */
function keysOf(parsed: unknown): unknown[] | undefined {
  const keys = typeof parsed === 'object' && parsed !== null && 'keys' in parsed ? parsed.keys : undefined;
  if (!Array.isArray(keys)) return undefined;
  if (keys.length > MAX_JWKS_KEYS) throw new KeySetTooBigError(`holds ${keys.length} keys, over ${MAX_JWKS_KEYS}`);
  return keys;
}

export function readJwksFile(path: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > MAX_JWKS_BYTES) throw new KeySetTooBigError(`is over ${MAX_JWKS_BYTES} bytes`);
    parsed = JSON.parse(text);
  } catch (error) {
    const why =
      error instanceof KeySetTooBigError ? error.message : ((error as NodeJS.ErrnoException).code ?? 'not JSON');
    throw new JwksFileError(
      `SVC_DOCS_OAUTH_JWKS_FILE: cannot read the key set ${path} (${why}): save the issuer's JWKS document (its jwks_uri) there`,
    );
  }
  let keys: unknown[] | undefined;
  try {
    keys = keysOf(parsed);
  } catch (error) {
    throw new JwksFileError(`SVC_DOCS_OAUTH_JWKS_FILE: ${path}: ${(error as Error).message}`);
  }
  if (keys === undefined || keys.length === 0)
    throw new JwksFileError(
      `SVC_DOCS_OAUTH_JWKS_FILE: ${path} is not a JWKS: expected {"keys": [ … ]} with at least one key`,
    );
  return parsed as JSONWebKeySet;
}

/** The body of `response`, read only up to `max` bytes. */
async function cappedText(response: Response, max: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > max) {
    await response.body?.cancel();
    throw new KeySetTooBigError(`is over ${max} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > max) throw new KeySetTooBigError(`is over ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** fetch for jose: the key set checked against the bounds before jose parses it; `fetched` told of each good one. */
function boundedFetch(fetched: () => void) {
  return async (url: string, options: RequestInit): Promise<Response> => {
    const response = await fetch(url, options);
    if (response.status !== 200) return response;
    const text = await cappedText(response, MAX_JWKS_BYTES);
    keysOf(JSON.parse(text));
    fetched();
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** A token's own problem (no key or several for it, an algorithm jose does not know), not the fetch's. */
function isTokenProblem({ errors }: Jose, error: unknown): boolean {
  return (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSENotSupported
  );
}

/**
 * The issuer's keys from `url`, refreshed as they age, the last good ones standing in while it is
 * down (see the module comment). `onStale` is told each time they do after a failed fetch.
 */
export function remoteKeys(
  jose: Jose,
  url: string,
  onStale: (error: KeysUnavailableError) => void = () => undefined,
  timings: KeyTimings = DEFAULT_TIMINGS,
): JWTVerifyGetKey {
  let fetchedAt = 0;
  let lastGood: { at: number; keys: JWTVerifyGetKey } | undefined;
  let retryAt = 0;
  const remote = jose.createRemoteJWKSet(new URL(url), {
    timeoutDuration: JWKS_TIMEOUT_MS,
    cacheMaxAge: timings.cacheMaxAgeMs,
    [jose.customFetch]: boundedFetch(() => (fetchedAt = Date.now())),
  });
  const usable = () => lastGood !== undefined && Date.now() - lastGood.at <= timings.graceMs;
  return async (header, token) => {
    if (usable() && Date.now() < retryAt) return lastGood!.keys(header, token);
    try {
      const key = await remote(header, token);
      if (lastGood === undefined || lastGood.at !== fetchedAt) {
        const jwks = remote.jwks();
        if (jwks !== undefined) lastGood = { at: fetchedAt, keys: jose.createLocalJWKSet(jwks) };
      }
      return key;
    } catch (error) {
      if (isTokenProblem(jose, error)) throw error;
      const unavailable = new KeysUnavailableError(url, error);
      if (!usable()) throw unavailable;
      retryAt = Date.now() + timings.retryMs;
      onStale(unavailable);
      return lastGood!.keys(header, token);
    }
  };
}
