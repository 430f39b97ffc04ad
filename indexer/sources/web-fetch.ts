import { SvcDocsError } from '../../src/errors.js';
import { USER_AGENT } from './robots.js';

/**
 * One request to a website, within the crawl's bounds: Node's fetch (undici) with redirects
 * followed by hand, so each hop is checked against the site's origin (a redirect to another host
 * is refused, never followed); conditional headers from the last crawl (a 304 costs no body); the
 * whole exchange under one time limit; the body read as a stream and given up at the byte bound,
 * so a 1 GB page costs at most the bound.
 */

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface FetchBounds {
  timeoutMs: number;
  maxBytes: number;
  /** Asked before each chunk is kept: false stops the read (the crawl's total byte budget). */
  take: (bytes: number) => boolean;
}

export type Fetched =
  | { kind: 'body'; url: URL; body: Buffer; contentType: string; validators: Validators }
  | { kind: 'unchanged'; url: URL }
  | { kind: 'missing'; status: number }
  | { kind: 'refused'; reason: string };

/** A request that could not be made or read (timeout, connection refused, over a bound). */
export class WebFetchError extends SvcDocsError<'corpus_unavailable'> {
  override name = 'WebFetchError';
  constructor(message: string) {
    super('corpus_unavailable', message);
  }
}

const MAX_REDIRECTS = 5;

export async function fetchBounded(
  start: URL,
  bounds: FetchBounds,
  validators: Validators = {},
  onChunk?: (chunk: Uint8Array) => boolean,
): Promise<Fetched> {
  const signal = AbortSignal.timeout(bounds.timeoutMs);
  try {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(url, { redirect: 'manual', signal, headers: headersFor(validators) });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.origin !== start.origin)
          return { kind: 'refused', reason: `redirects to another host (${next.origin})` };
        url = next;
        continue;
      }
      if (response.status === 304) return { kind: 'unchanged', url };
      if (!response.ok) {
        await response.body?.cancel();
        return { kind: 'missing', status: response.status };
      }
      const body = await readBody(response, bounds, onChunk);
      return {
        kind: 'body',
        url,
        body,
        contentType: response.headers.get('content-type') ?? '',
        validators: validatorsOf(response),
      };
    }
    return { kind: 'refused', reason: `more than ${MAX_REDIRECTS} redirects` };
  } catch (error) {
    if (error instanceof WebFetchError) throw error;
    if (signal.aborted)
      throw new WebFetchError(`no complete answer within ${bounds.timeoutMs / 1000} s (SVC_DOCS_WEB_TIMEOUT_SECONDS)`);
    throw new WebFetchError(`the request failed (${(error as Error).cause ?? (error as Error).message})`);
  }
}

function headersFor(validators: Validators): Record<string, string> {
  return {
    'user-agent': `${USER_AGENT} (documentation indexer)`,
    ...(validators.etag !== undefined && { 'if-none-match': validators.etag }),
    ...(validators.lastModified !== undefined && { 'if-modified-since': validators.lastModified }),
  };
}

function validatorsOf(response: Response): Validators {
  const etag = response.headers.get('etag') ?? undefined;
  const lastModified = response.headers.get('last-modified') ?? undefined;
  return { ...(etag !== undefined && { etag }), ...(lastModified !== undefined && { lastModified }) };
}

/** The body up to the bound; over it, the read is cancelled and a WebFetchError says so. `onChunk` false: stop early, keep what was read. */
async function readBody(
  response: Response,
  bounds: FetchBounds,
  onChunk?: (chunk: Uint8Array) => boolean,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const over = () =>
    new WebFetchError(`over the limit of ${bounds.maxBytes} bytes per page (SVC_DOCS_WEB_MAX_PAGE_BYTES)`);
  if (declared > bounds.maxBytes) {
    await response.body?.cancel();
    throw over();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > bounds.maxBytes || !bounds.take(value.byteLength)) {
      await reader.cancel();
      if (size > bounds.maxBytes) throw over();
      throw new WebFetchError('the crawl reached its total byte limit (SVC_DOCS_WEB_MAX_TOTAL_BYTES)');
    }
    if (onChunk) {
      if (!onChunk(value)) {
        await reader.cancel();
        break;
      }
    } else chunks.push(value);
  }
  return Buffer.concat(chunks);
}
