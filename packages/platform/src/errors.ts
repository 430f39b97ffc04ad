/**
 * Errors raised by the platform module. One class per audience: `PlatformError`
 * for calls the app makes (install, tokens, wallets, triggers) and
 * `WebhookVerificationError` for deliveries the platform sends, so a webhook
 * handler can tell "the sender is wrong" (401/400) from "we are wrong" (5xx).
 */

export type PlatformErrorCode =
  /** An option or argument is unusable (empty id, non-HTTPS redirect URI, bad algorithm list). */
  | 'invalid_argument'
  /** The install redirect lacks `instanceId` or is not a URL. */
  | 'invalid_redirect'
  /** The install redirect's `state` differs from the one the app sent. */
  | 'state_mismatch'
  /** The request never got an answer (connection refused, reset, DNS). */
  | 'network_error'
  /** The request got no answer within the timeout. */
  | 'timeout'
  /** The platform answered with a non-2xx status; see `status`. */
  | 'http_error'
  /** The platform answered 401 even with a freshly issued token. */
  | 'unauthorized'
  /** The platform answered 2xx with a body that does not match the contract. */
  | 'invalid_response'
  /** A trigger payload does not match its schema. */
  | 'invalid_trigger_payload'
  /** A trigger schema cannot be compiled, or is too deep or cyclic to check. */
  | 'invalid_trigger_schema'
  /** A library a feature needs is not available (node:sqlite, on a Node older than 22.13, for the SQLite webhook store). */
  | 'dependency_missing'
  | WebhookErrorCode;

export type WebhookErrorCode =
  /** The body is not a compact JWS, or its header or claims are not JSON. */
  | 'malformed_jwt'
  /** The JWT's `alg` is not one the caller pinned (this includes `none`). */
  | 'algorithm_not_allowed'
  /** The signature does not match the key. */
  | 'invalid_signature'
  /** `exp` is in the past. */
  | 'expired'
  /** `iat` or `exp` is missing, or `iat` is in the future. */
  | 'invalid_claims'
  /** A nested JSON string (`data`, `identity`, `entityAsJson`) does not parse. */
  | 'malformed_json'
  /** A required field of the delivery or domain event is absent. */
  | 'missing_field'
  /** A field is present but has the wrong type or value. */
  | 'invalid_field';

export class PlatformError extends Error {
  override readonly name: string = 'PlatformError';
  readonly code: PlatformErrorCode;
  /** HTTP status the platform answered, for `http_error` and `unauthorized`. */
  readonly status: number | undefined;

  constructor(code: PlatformErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/** A webhook delivery was rejected. `field` names the nested field at fault, when there is one. */
export class WebhookVerificationError extends PlatformError {
  override readonly name: string = 'WebhookVerificationError';
  declare readonly code: WebhookErrorCode;
  readonly field: string | undefined;

  constructor(code: WebhookErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.field = options.field;
  }

  /**
   * The status a webhook endpoint should answer: 401 when the sender cannot be
   * trusted, 400 when a trusted sender sent a body we cannot read.
   */
  get httpStatus(): 400 | 401 {
    switch (this.code) {
      case 'algorithm_not_allowed':
      case 'invalid_signature':
      case 'expired':
      case 'invalid_claims':
        return 401;
      default:
        return 400;
    }
  }
}
