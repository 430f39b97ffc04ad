/**
 * Webhook JWT verification (corpus/svc-platform/webhooks/verify-and-decode.md): signature with algorithms
 * the caller pins, `exp`/`iat` checked, then the nested JSON decoded.
 * Misconfiguration (no algorithms, `none`, HMAC with a public key) is refused
 * up front, because each of those lets anyone forge a delivery.
 */
import { KeyObject, createPublicKey, createSecretKey, type webcrypto } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { PlatformError, WebhookVerificationError, type WebhookErrorCode } from './errors.js';
import { decodeWebhookPayload, type WebhookDelivery } from './webhook-delivery.js';

/**
 * The platform's verification key: a public key as PEM (SPKI or certificate),
 * `KeyObject`, `CryptoKey` or public JWK. HMAC secrets only as bytes or an
 * `oct` JWK, so a PEM string is never mistaken for a shared secret.
 */
export type WebhookKey = KeyObject | CryptoKey | JWK | Uint8Array | string;

export interface VerifyWebhookOptions {
  /** The algorithm(s) the platform signs with, e.g. `['RS256']`. Required: never inferred from the token. */
  algorithms: readonly string[];
  /** Allowed clock skew for `exp` and `iat`, in seconds. Default 30. */
  clockToleranceSec?: number;
}

export const DEFAULT_CLOCK_TOLERANCE_SEC = 30;

/** The key each algorithm needs, as node:crypto describes keys. */
const KEY_REQUIREMENTS: Record<
  string,
  { type: 'secret' | 'asymmetric'; keyTypes?: readonly string[]; curve?: string }
> = {
  HS256: { type: 'secret' },
  HS384: { type: 'secret' },
  HS512: { type: 'secret' },
  RS256: { type: 'asymmetric', keyTypes: ['rsa'] },
  RS384: { type: 'asymmetric', keyTypes: ['rsa'] },
  RS512: { type: 'asymmetric', keyTypes: ['rsa'] },
  PS256: { type: 'asymmetric', keyTypes: ['rsa', 'rsa-pss'] },
  PS384: { type: 'asymmetric', keyTypes: ['rsa', 'rsa-pss'] },
  PS512: { type: 'asymmetric', keyTypes: ['rsa', 'rsa-pss'] },
  ES256: { type: 'asymmetric', keyTypes: ['ec'], curve: 'prime256v1' },
  ES384: { type: 'asymmetric', keyTypes: ['ec'], curve: 'secp384r1' },
  ES512: { type: 'asymmetric', keyTypes: ['ec'], curve: 'secp521r1' },
  EdDSA: { type: 'asymmetric', keyTypes: ['ed25519', 'ed448'] },
  Ed25519: { type: 'asymmetric', keyTypes: ['ed25519'] },
};

/**
 * Verifies a delivery body and returns the decoded, typed delivery. Throws
 * `WebhookVerificationError` for a delivery that must not be trusted or read,
 * and `PlatformError('invalid_argument')` for unusable key/algorithm settings.
 */
export async function verifyWebhook(
  jwt: string,
  key: WebhookKey,
  options: VerifyWebhookOptions,
): Promise<WebhookDelivery> {
  return createWebhookVerifier(key, options)(jwt);
}

/** Checks key and algorithms once and returns a verifier; used by the handler to fail at start-up, not per request. */
export function createWebhookVerifier(
  key: WebhookKey,
  options: VerifyWebhookOptions,
): (jwt: string) => Promise<WebhookDelivery> {
  const keyObject = toVerificationKey(key);
  const algorithms = checkAlgorithms(options.algorithms, keyObject);
  const toleranceSec = options.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC;
  if (!Number.isFinite(toleranceSec) || toleranceSec < 0) {
    throw new PlatformError('invalid_argument', `clockToleranceSec must be zero or more seconds, got ${toleranceSec}`);
  }
  return async (jwt) => {
    const token = readCompactJwt(jwt);
    const alg = readAlgorithm(token);
    if (!algorithms.includes(alg)) {
      throw new WebhookVerificationError(
        'algorithm_not_allowed',
        `the delivery is signed with ${JSON.stringify(alg)} but this endpoint accepts only ${algorithms.join(', ')}: rejected as untrusted`,
      );
    }
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, keyObject, {
        algorithms: [...algorithms],
        clockTolerance: toleranceSec,
        requiredClaims: ['iat', 'exp'],
      }));
    } catch (error) {
      throw fromJoseError(error);
    }
    const iat = claims.iat;
    if (typeof iat === 'number' && iat > Date.now() / 1000 + toleranceSec) {
      throw new WebhookVerificationError(
        'invalid_claims',
        "the delivery's iat is in the future: check this server's clock, or raise clockToleranceSec",
      );
    }
    return decodeWebhookPayload(claims);
  };
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

function readCompactJwt(body: unknown): string {
  const token = typeof body === 'string' ? body.trim() : '';
  if (!COMPACT_JWS.test(token)) {
    throw new WebhookVerificationError(
      'malformed_jwt',
      'the delivery body is not a JWT (expected three base64url parts separated by dots)',
    );
  }
  return token;
}

function readAlgorithm(token: string): string {
  let alg: unknown;
  try {
    ({ alg } = decodeProtectedHeader(token));
  } catch {
    throw new WebhookVerificationError('malformed_jwt', "the delivery's JWT header is not base64url-encoded JSON");
  }
  if (typeof alg !== 'string') {
    throw new WebhookVerificationError('malformed_jwt', 'the delivery\'s JWT header has no "alg"');
  }
  return alg;
}

/** What each jose error means for a delivery; the message says what the operator can do. */
const JOSE_ERRORS: Record<string, [WebhookErrorCode, string]> = {
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: [
    'invalid_signature',
    "the delivery's signature does not match the platform key: rejected as forged",
  ],
  ERR_JWT_EXPIRED: [
    'expired',
    "the delivery's JWT has expired (exp is in the past): if this repeats for fresh deliveries, check this server's clock",
  ],
  ERR_JOSE_ALG_NOT_ALLOWED: [
    'algorithm_not_allowed',
    'the delivery is signed with an algorithm this endpoint does not accept',
  ],
  ERR_JWS_INVALID: [
    'malformed_jwt',
    "the delivery's JWT is malformed (its payload is not a JSON object or its header is invalid)",
  ],
};
JOSE_ERRORS.ERR_JWT_INVALID = JOSE_ERRORS.ERR_JWS_INVALID!;

function fromJoseError(error: unknown): WebhookVerificationError {
  const { code, claim } = error instanceof Error ? (error as Error & { code?: unknown; claim?: unknown }) : {};
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    return new WebhookVerificationError(
      'invalid_claims',
      `the delivery's JWT claim ${JSON.stringify(claim)} is missing or invalid`,
    );
  }
  // The default, e.g. a key that fits none of the token's parameters: never trust what could not be checked.
  const [kind, message] = (typeof code === 'string' && Object.hasOwn(JOSE_ERRORS, code) && JOSE_ERRORS[code]) || [
    'invalid_signature',
    "the delivery's signature could not be verified with the configured key",
  ];
  return new WebhookVerificationError(kind, message);
}

function toVerificationKey(key: WebhookKey): KeyObject {
  try {
    if (key instanceof KeyObject || isCryptoKey(key)) {
      const keyObject = key instanceof KeyObject ? key : KeyObject.from(key);
      return keyObject.type === 'private' ? createPublicKey(keyObject) : keyObject;
    }
    if (key instanceof Uint8Array) return createSecretKey(key);
    if (typeof key === 'string') return createPublicKey(key);
    if (key.kty === 'oct') {
      if (typeof key.k !== 'string') throw new Error('an oct JWK needs "k"');
      return createSecretKey(Buffer.from(key.k, 'base64url'));
    }
    return createPublicKey({ key: { ...key }, format: 'jwk' });
  } catch (error) {
    if (error instanceof PlatformError) throw error;
    throw new PlatformError(
      'invalid_argument',
      'the webhook key is not usable: pass the platform public key as PEM, KeyObject, CryptoKey or JWK (HMAC secrets as Uint8Array)',
    );
  }
}

function isCryptoKey(key: unknown): key is webcrypto.CryptoKey {
  return Object.prototype.toString.call(key) === '[object CryptoKey]';
}

function checkAlgorithms(algorithms: readonly string[], key: KeyObject): readonly string[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new PlatformError(
      'invalid_argument',
      'algorithms must name the algorithm(s) the platform signs with, e.g. ["RS256"]: they are never taken from the token itself',
    );
  }
  for (const alg of algorithms) {
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      throw new PlatformError(
        'invalid_argument',
        'algorithms must not include "none": unsigned deliveries can be forged by anyone',
      );
    }
    const requirement = KEY_REQUIREMENTS[alg];
    if (requirement === undefined) {
      throw new PlatformError(
        'invalid_argument',
        `algorithm ${JSON.stringify(alg)} is not supported: use one of ${Object.keys(KEY_REQUIREMENTS).join(', ')}`,
      );
    }
    if (requirement.type === 'secret' && key.type !== 'secret') {
      throw new PlatformError(
        'invalid_argument',
        `${alg} cannot be used with a public key: anyone holding the public key could sign deliveries with it as an HMAC secret; pin the platform's asymmetric algorithm (e.g. RS256)`,
      );
    }
    if (requirement.type === 'asymmetric') {
      const fits =
        key.type !== 'secret' &&
        requirement.keyTypes?.includes(key.asymmetricKeyType ?? '') === true &&
        (requirement.curve === undefined || key.asymmetricKeyDetails?.namedCurve === requirement.curve);
      if (!fits) {
        throw new PlatformError(
          'invalid_argument',
          `${alg} does not fit the given key (${describeKey(key)}): pass the key that matches the platform's algorithm`,
        );
      }
    }
  }
  return [...algorithms];
}

function describeKey(key: KeyObject): string {
  if (key.type === 'secret') return 'a secret key';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return `a ${key.asymmetricKeyType ?? 'unknown'}${curve === undefined ? '' : ` ${curve}`} public key`;
}
