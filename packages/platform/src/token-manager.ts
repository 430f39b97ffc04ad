/**
 * Access tokens per merchant installation (corpus/svc-platform/apps/oauth-tokens.md): `client_credentials`
 * scoped by `instance_id`, cached, refreshed before the ~4 h expiry, one
 * request in flight per instance, retried on network errors and 5xx.
 */
import { z } from 'zod';
import { PlatformError } from './errors.js';
import {
  DEFAULT_TIMEOUT_MS,
  backoffDelay,
  fetchOf,
  numberOption,
  postJson,
  quoteBody,
  requireNonEmpty,
  serviceUrl,
  sleep,
  type FetchLike,
} from './http.js';
import { consoleLogger, type PlatformLogger } from './log.js';

export const TOKEN_PATH = '/oauth2/token';

/** The platform's docs give "about 4 hours" and the response shows no `expires_in`. */
export const ASSUMED_TOKEN_VALIDITY_MS = 4 * 60 * 60 * 1000;

export interface TokenManagerOptions {
  /** `{base_url}`. https, or http on localhost for a local fake. */
  baseUrl: string;
  /** The app id. */
  clientId: string;
  /** The app secret. Never logged and never put in an error message. */
  clientSecret: string;
  fetch?: FetchLike;
  /** Per token request. Default 10 s. */
  timeoutMs?: number;
  /** Token requests per `getToken` before giving up, first one included. Default 4. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt, with jitter, capped at 10 s. Default 250 ms. */
  retryBaseDelayMs?: number;
  /** Refresh this long before expiry (at most a tenth of the validity). Default 5 min. */
  refreshMarginMs?: number;
  /** Clock in ms; injectable so tests can move time. Default `Date.now`. */
  now?: () => number;
  logger?: PlatformLogger;
}

const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  // Not in the documented response: read by validityMs, never a reason to refuse the token.
  expires_in: z.unknown().optional(),
});

/**
 * How long a token is valid. The contract gives "about 4 hours" and no `expires_in`; one that a
 * deployment sends is honoured when it is a positive number of seconds (as a number or a decimal
 * string). Anything else ("0", negative, text) is ignored rather than trusted: a zero validity
 * would request a token on every call.
 */
export function validityMs(expiresIn: unknown): number {
  const seconds =
    typeof expiresIn === 'number'
      ? expiresIn
      : typeof expiresIn === 'string' && /^\d+(\.\d+)?$/.test(expiresIn.trim())
        ? Number(expiresIn)
        : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : ASSUMED_TOKEN_VALIDITY_MS;
}

const MAX_RETRY_DELAY_MS = 10_000;

interface CachedToken {
  token: string;
  refreshAt: number;
  expiresAt: number;
}

export class TokenManager {
  readonly #tokenUrl: string;
  readonly #clientId: string;
  // A private field, so `console.log(manager)` and `util.inspect` cannot show it.
  readonly #clientSecret: string;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #retryBaseDelayMs: number;
  readonly #refreshMarginMs: number;
  readonly #now: () => number;
  readonly #log: PlatformLogger;
  readonly #cache = new Map<string, CachedToken>();
  readonly #inFlight = new Map<string, Promise<string>>();

  constructor(options: TokenManagerOptions) {
    this.#tokenUrl = serviceUrl(options.baseUrl, TOKEN_PATH);
    this.#clientId = requireNonEmpty(options.clientId, 'clientId');
    this.#clientSecret = requireNonEmpty(options.clientSecret, 'clientSecret');
    this.#fetch = fetchOf(options.fetch);
    this.#timeoutMs = numberOption(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', 'a positive number');
    this.#maxAttempts = numberOption(options.maxAttempts ?? 4, 'maxAttempts', 'a positive number');
    this.#retryBaseDelayMs = numberOption(options.retryBaseDelayMs ?? 250, 'retryBaseDelayMs', 'zero or more');
    this.#refreshMarginMs = numberOption(options.refreshMarginMs ?? 300_000, 'refreshMarginMs', 'zero or more');
    this.#now = options.now ?? Date.now;
    this.#log = options.logger ?? consoleLogger;
  }

  /**
   * A valid access token for the installation; concurrent callers share one request. Inside the
   * refresh margin a new token is requested, but if that fails while the cached one is still
   * valid, the cached one is returned (and the next call tries again).
   */
  getToken(instanceId: string): Promise<string> {
    requireNonEmpty(instanceId, 'instanceId');
    const cached = this.#cache.get(instanceId);
    if (cached !== undefined && this.#now() < cached.refreshAt) return Promise.resolve(cached.token);
    const request = this.#requestOnce(instanceId);
    if (cached === undefined) return request;
    return request.catch((error: unknown) => {
      if (this.#now() >= cached.expiresAt || this.#cache.get(instanceId) !== cached) throw error;
      this.#log({
        level: 'warn',
        message: `early token refresh failed (${error instanceof PlatformError ? error.code : 'error'}); the cached token is still valid and stays in use`,
        fields: { instanceId, validForMs: cached.expiresAt - this.#now() },
      });
      return cached.token;
    });
  }

  /**
   * Discards `rejectedToken` after an API answered 401 with it and returns a new
   * token. Callers that saw the same rejected token share one refresh; a caller
   * whose token was already replaced gets the replacement without a request.
   */
  forceRefresh(instanceId: string, rejectedToken?: string): Promise<string> {
    requireNonEmpty(instanceId, 'instanceId');
    const inFlight = this.#inFlight.get(instanceId);
    if (inFlight !== undefined) return inFlight;
    const cached = this.#cache.get(instanceId);
    if (cached !== undefined && rejectedToken !== undefined && cached.token !== rejectedToken) {
      return Promise.resolve(cached.token);
    }
    this.#cache.delete(instanceId);
    return this.#requestOnce(instanceId);
  }

  /** Forgets the cached token, e.g. when the merchant uninstalls the app. */
  forget(instanceId: string): void {
    this.#cache.delete(instanceId);
  }

  #requestOnce(instanceId: string): Promise<string> {
    const existing = this.#inFlight.get(instanceId);
    if (existing !== undefined) return existing;
    const request = this.#requestWithRetry(instanceId).finally(() => this.#inFlight.delete(instanceId));
    this.#inFlight.set(instanceId, request);
    return request;
  }

  async #requestWithRetry(instanceId: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#request(instanceId);
      } catch (error) {
        if (!(error instanceof PlatformError) || !isRetryable(error) || attempt >= this.#maxAttempts) throw error;
        const delay = backoffDelay(attempt, this.#retryBaseDelayMs, MAX_RETRY_DELAY_MS);
        this.#log({
          level: 'warn',
          message: `token request failed (${error.code}${error.status === undefined ? '' : ` ${error.status}`}), retrying`,
          fields: { instanceId, attempt, maxAttempts: this.#maxAttempts, retryInMs: delay },
        });
        await sleep(delay);
      }
    }
  }

  async #request(instanceId: string): Promise<string> {
    // The validity clock starts before the request, so network time only makes us refresh earlier.
    const requestedAt = this.#now();
    const response = await postJson({
      fetch: this.#fetch,
      url: this.#tokenUrl,
      body: {
        grant_type: 'client_credentials',
        client_id: this.#clientId,
        client_secret: this.#clientSecret,
        instance_id: instanceId,
      },
      headers: {},
      timeoutMs: this.#timeoutMs,
      secrets: [this.#clientSecret],
    });
    if (response.status < 200 || response.status > 299) {
      const hint =
        response.status >= 500 || response.status === 429
          ? 'the platform is failing or throttling; try again later'
          : 'check clientId, clientSecret and that instanceId belongs to an installation of this app';
      throw new PlatformError(
        'http_error',
        `token request for instance ${instanceId} answered ${response.status} with ${quoteBody(response.text)}: ${hint}`,
        { status: response.status },
      );
    }
    const parsed = TokenResponse.safeParse(response.body);
    if (!parsed.success) {
      throw new PlatformError(
        'invalid_response',
        `token response for instance ${instanceId} has no access_token: the platform answered ${response.status} with a body this module does not understand`,
      );
    }
    const validity = validityMs(parsed.data.expires_in);
    const margin = Math.min(this.#refreshMarginMs, validity / 10);
    const token = parsed.data.access_token;
    this.#cache.set(instanceId, {
      token,
      refreshAt: requestedAt + validity - margin,
      expiresAt: requestedAt + validity,
    });
    return token;
  }
}

function isRetryable(error: PlatformError): boolean {
  if (error.code === 'network_error' || error.code === 'timeout') return true;
  return error.code === 'http_error' && error.status !== undefined && (error.status >= 500 || error.status === 429);
}
