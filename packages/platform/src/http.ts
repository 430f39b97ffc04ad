/**
 * The one place the platform module talks HTTP to the platform: JSON POST with
 * a timeout, errors mapped to `PlatformError`, and secrets scrubbed from
 * anything that ends up in an error message.
 */
import { PlatformError } from './errors.js';

/** The subset of `fetch` the module uses; inject one to add proxies, tracing or fakes. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 10_000;

/** How much of an error response body is quoted in an error message. */
const QUOTED_BODY_CHARS = 200;

/**
 * Accepts `https:` URLs, and `http:` only on loopback so a local fake works:
 * tokens and API keys must never travel in clear text over a network.
 */
export function parseServiceUrl(value: string, what: string): URL {
  const url = absoluteUrl(value, what, ': pass e.g. "https://api.example.com"');
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such URLs, and the credentials would be in every error message that names the URL.
    throw new PlatformError(
      'invalid_argument',
      `${what} ${JSON.stringify(withoutCredentials(value))} carries credentials (user:password@): remove them; the platform authenticates with tokens and API keys`,
    );
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new PlatformError(
      'invalid_argument',
      `${what} ${JSON.stringify(value)} must use https (plain http is accepted only for localhost)`,
    );
  }
  return url;
}

/** `value` as a URL, or an `invalid_argument` naming `what` (any credentials in it hidden), then `hint`. */
export function absoluteUrl(value: string, what: string, hint = ''): URL {
  const url = URL.parse(value);
  if (url !== null) return url;
  throw new PlatformError(
    'invalid_argument',
    `${what} ${JSON.stringify(withoutCredentials(String(value)))} is not an absolute URL${hint}`,
  );
}

/** `https://user:pass@host` → `https://[credentials]@host`, also in text that is not a valid URL. */
export function withoutCredentials(text: string): string {
  return text.replace(/[^\s/@]+@/g, '[credentials]@');
}

/** `{base_url}` (checked by parseServiceUrl) + `/path`, keeping any path prefix of the base. */
export function serviceUrl(baseUrl: string, path: string): string {
  return parseServiceUrl(baseUrl, 'baseUrl').href.replace(/\/+$/, '') + path;
}

/** The fetch an option names, else the global one (looked up per call, so a test may replace it). */
export function fetchOf(fetch: FetchLike | undefined): FetchLike {
  return fetch ?? ((input, init) => globalThis.fetch(input, init));
}

/** `value` if it is a finite number the rule allows, else an `invalid_argument` naming `what` and the rule. */
export function numberOption(value: number, what: string, rule: 'a positive number' | 'zero or more' | '1 or more') {
  const least = rule === '1 or more' ? 1 : 0;
  if (!Number.isFinite(value) || value < least || (rule === 'a positive number' && value === 0))
    throw new PlatformError('invalid_argument', `${what} must be ${rule}, got ${value}`);
  return value;
}

export function requireNonEmpty(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PlatformError('invalid_argument', `${what} must be a non-empty string`);
  }
  return value;
}

/**
 * Replaces every occurrence of each secret, as is and in the forms an echoing server or proxy
 * sends it back in (JSON-escaped, URL-encoded, form-encoded, and these combined), so none can
 * leak into our errors.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = secrets.filter((secret) => secret.length > 0).flatMap(encodedForms);
  // Longest first, so a form that contains another is replaced whole.
  for (const form of [...new Set(forms)].sort((a, b) => b.length - a.length)) out = out.split(form).join('[redacted]');
  return out;
}

function encodedForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = (value: string) => [encodeURIComponent(value), new URLSearchParams({ s: value }).toString().slice(2)];
  return [
    secret,
    json,
    JSON.stringify(json).slice(1, -1),
    ...url(secret),
    ...url(json),
    ...url(JSON.stringify(secret)),
  ];
}

export interface JsonResponse {
  status: number;
  /** Parsed JSON body; `undefined` when the body is empty or not JSON. */
  body: unknown;
  /** Raw body, already scrubbed of secrets, for error messages. */
  text: string;
}

export interface PostJsonOptions {
  fetch?: FetchLike | undefined;
  url: string;
  body: unknown;
  headers: Record<string, string>;
  /** Default 10 s. */
  timeoutMs?: number | undefined;
  /** Values to scrub from error messages (client secret, API key, tokens). */
  secrets: readonly string[];
}

/**
 * POSTs JSON and returns the status and body whatever the status is; throws
 * only when there is no answer (`network_error`, `timeout`).
 */
export async function postJson(options: PostJsonOptions): Promise<JsonResponse> {
  const { url, timeoutMs = DEFAULT_TIMEOUT_MS, secrets } = options;
  let response: Response;
  let text: string;
  try {
    response = await fetchOf(options.fetch)(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw new PlatformError(
        'timeout',
        `POST ${url} got no answer within ${timeoutMs} ms: check that the platform is reachable, or raise timeoutMs`,
      );
    }
    // The cause's message is scrubbed and re-stated rather than attached, so no
    // secret can reach a log through `error.cause`.
    throw new PlatformError(
      'network_error',
      `POST ${url} failed: ${redact(describeNetworkError(error), secrets)}: check the base URL and the network`,
    );
  }
  const scrubbed = redact(text, secrets);
  return { status: response.status, body: parseJsonOrUndefined(text), text: scrubbed };
}

/** A short, quoted excerpt of a response body for an error message. */
export function quoteBody(text: string): string {
  if (text.trim() === '') return 'an empty body';
  const excerpt = text.length > QUOTED_BODY_CHARS ? `${text.slice(0, QUOTED_BODY_CHARS)}…` : text;
  return JSON.stringify(excerpt);
}

/** Exponential backoff with full jitter, so many clients do not retry in lock-step. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

/** The JSON value of `text`; `undefined` when it is empty or not JSON. */
export function parseJsonOrUndefined(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
