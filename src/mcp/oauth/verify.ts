import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { type KeyTimings, KeysUnavailableError, readJwksFile, remoteKeys } from './jwks.js';
import type { OAuthConfig } from '../../settings/oauth-config.js';
import { SvcDocsError } from '../../errors.js';

type Jose = typeof import('jose');
type JoseErrors = Jose['errors'];

/** jose is loaded with the first token to verify: a server without OAuth never loads it, one with it starts sooner. */
let jose: Promise<Jose> | undefined;
function loadJose(): Promise<Jose> {
  jose ??= import('jose');
  return jose;
}

/**
 * Checking a JWT access token (MCP authorization, OAuth 2.1 resource server): signature by a key
 * of the issuer's JWKS, with asymmetric algorithms only; `iss`, `aud` (this server's resource
 * URL), `exp` and `nbf`; then the required scope. A refusal names the problem, never the token.
 */

/** Asymmetric only: `none` and HMAC (whose "secret" an attacker could take from the public JWKS) are refused. */
export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Clocks of the issuer and this server may differ by this much. */
const CLOCK_TOLERANCE_SECONDS = 30;

type TokenProblem =
  | 'malformed'
  | 'algorithm-not-allowed'
  | 'unknown-key'
  | 'bad-signature'
  | 'expired'
  | 'not-yet-valid'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'missing-claim'
  | 'insufficient-scope';

const EXPLAIN: Record<TokenProblem, string> = {
  malformed: 'the bearer token is not a signed JWT',
  'algorithm-not-allowed': 'the token is not signed with an asymmetric algorithm (RS256, ES256, EdDSA …)',
  'unknown-key': "the token is signed with a key that is not in the issuer's key set",
  'bad-signature': 'the token signature does not verify',
  expired: 'the token has expired',
  'not-yet-valid': 'the token is not valid yet (nbf is in the future)',
  'wrong-issuer': 'the token was issued by another authorization server',
  'wrong-audience': 'the token was issued for another resource (aud)',
  'missing-claim': 'the token lacks a required claim (iss, aud, exp)',
  'insufficient-scope': 'the token lacks the required scope',
};

/** A token this server does not accept; `code` is the RFC 6750 error the challenge names. */
export class TokenRefusedError extends SvcDocsError<'invalid_token' | 'insufficient_scope'> {
  override name = 'TokenRefusedError';

  constructor(readonly reason: TokenProblem) {
    super(reason === 'insufficient-scope' ? 'insufficient_scope' : 'invalid_token', EXPLAIN[reason]);
  }
}

/** What a jose failure means for the client. */
function problemOf(errors: JoseErrors, error: unknown): TokenProblem | undefined {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return 'missing-claim';
    const byClaim: Record<string, TokenProblem> = {
      nbf: 'not-yet-valid',
      iss: 'wrong-issuer',
      aud: 'wrong-audience',
      exp: 'expired',
    };
    return byClaim[error.claim] ?? 'malformed';
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return 'algorithm-not-allowed';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return 'unknown-key';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad-signature';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JWKInvalid)
    return 'malformed';
  return undefined;
}

/** The scopes a token grants: `scope` (space-separated, RFC 9068) or `scp` (an array, or a string). */
export function scopesOf(payload: JWTPayload): string[] {
  const granted = payload.scope ?? payload.scp;
  if (typeof granted === 'string') return granted.split(' ').filter(Boolean);
  if (Array.isArray(granted)) return granted.filter((s): s is string => typeof s === 'string');
  return [];
}

/** What a verified token says about its bearer. */
export interface VerifiedToken {
  scopes: string[];
  /** Who it was issued to: `sub`, else `client_id` or `azp`, when it names one. */
  subject?: string;
}

export interface TokenVerifier {
  /** Resolves with the token's scopes and subject; throws TokenRefusedError or KeysUnavailableError. */
  verify(token: string): Promise<VerifiedToken>;
}

function subjectOf(payload: JWTPayload): string | undefined {
  const subject = payload.sub ?? payload.client_id ?? payload.azp;
  return typeof subject === 'string' && subject !== '' ? subject : undefined;
}

export interface VerifierOptions {
  /** Told when the issuer cannot be reached and its last keys stand in (jwks.ts). */
  onKeysStale?: (error: KeysUnavailableError) => void;
  /** How long keys are cached and may stand in; tests shorten them. */
  keyTimings?: KeyTimings;
}

export function createTokenVerifier(config: OAuthConfig, options: VerifierOptions = {}): TokenVerifier {
  const { jwks } = config;
  // A bad JWKS file is a startup error, so it is read now; jose itself waits for the first token.
  const localSet = 'file' in jwks ? readJwksFile(jwks.file) : undefined;
  const keysFrom = (jose: Jose): JWTVerifyGetKey =>
    'url' in jwks
      ? remoteKeys(jose, jwks.url, options.onKeysStale, options.keyTimings)
      : jose.createLocalJWKSet(localSet!);
  let ready: Promise<{ jose: Jose; keys: JWTVerifyGetKey }> | undefined;
  return {
    async verify(token) {
      ready ??= loadJose().then((jose) => ({ jose, keys: keysFrom(jose) }));
      const { jose, keys } = await ready;
      let payload: JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(token, keys, {
          issuer: config.issuer,
          audience: [...config.resources],
          algorithms: ACCEPTED_ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['iss', 'aud', 'exp'],
        }));
      } catch (error) {
        if (error instanceof KeysUnavailableError) throw error;
        const problem = problemOf(jose.errors, error);
        if (problem === undefined) throw error;
        throw new TokenRefusedError(problem);
      }
      const scopes = scopesOf(payload);
      if (!scopes.includes(config.scope)) throw new TokenRefusedError('insufficient-scope');
      const subject = subjectOf(payload);
      return subject === undefined ? { scopes } : { scopes, subject };
    },
  };
}
