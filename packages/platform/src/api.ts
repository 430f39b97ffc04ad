/**
 * Calls to the platform's REST API on behalf of one installation
 * (corpus/svc-platform/api/, apps/oauth-tokens.md): bearer token from the TokenManager, one forced refresh on 401.
 */
import { PlatformError } from './errors.js';
import { postJson, quoteBody, requireNonEmpty, serviceUrl, type FetchLike } from './http.js';
import type { TokenManager } from './token-manager.js';

export const WALLETS_QUERY_PATH = '/v1/svc/wallets/query';

/** The token side of a `TokenManager`; any object with these two methods will do. */
export type TokenSource = Pick<TokenManager, 'getToken' | 'forceRefresh'>;

export interface PlatformApiCall {
  /** `{base_url}`. */
  baseUrl: string;
  tokens: TokenSource;
  instanceId: string;
  /** Path below the base, e.g. `/v1/svc/wallets/query`. */
  path: string;
  /** JSON request body. */
  body: unknown;
  fetch?: FetchLike;
  /** Per request. Default 10 s. */
  timeoutMs?: number;
}

/**
 * POSTs to the API as the installation and returns the parsed JSON body.
 * A 401 triggers one token refresh and one retry; a second 401 is an
 * `unauthorized` error. Other failures are not retried here, because the
 * caller knows whether repeating its request is safe.
 */
export async function callPlatformApi(call: PlatformApiCall): Promise<unknown> {
  const url = serviceUrl(call.baseUrl, call.path);
  const instanceId = requireNonEmpty(call.instanceId, 'instanceId');
  const { fetch, timeoutMs, body } = call;
  const send = async (token: string) =>
    postJson({ fetch, url, body, headers: { Authorization: `Bearer ${token}` }, timeoutMs, secrets: [token] });

  const firstToken = await call.tokens.getToken(instanceId);
  let response = await send(firstToken);
  if (response.status === 401) {
    const freshToken = await call.tokens.forceRefresh(instanceId, firstToken);
    response = await send(freshToken);
    if (response.status === 401) {
      throw new PlatformError(
        'unauthorized',
        `POST ${url} answered 401 for instance ${instanceId} even with a fresh token: the app may have been uninstalled or lacks the permission`,
        { status: 401 },
      );
    }
  }
  if (response.status < 200 || response.status > 299) {
    throw new PlatformError(
      'http_error',
      `POST ${url} for instance ${instanceId} answered ${response.status} with ${quoteBody(response.text)}`,
      { status: response.status },
    );
  }
  return response.body;
}

export interface QueryWalletsOptions extends Omit<PlatformApiCall, 'path' | 'body'> {
  /** Query body. `{}` is accepted; other fields are not documented. */
  query?: Record<string, unknown>;
}

/** `POST {base_url}/v1/svc/wallets/query` as the installation. The response shape is not documented, hence `unknown`. */
export async function queryWallets(options: QueryWalletsOptions): Promise<unknown> {
  const { query = {}, ...rest } = options;
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    throw new PlatformError('invalid_argument', 'query must be a JSON object, e.g. {}');
  }
  return callPlatformApi({ ...rest, path: WALLETS_QUERY_PATH, body: query });
}
