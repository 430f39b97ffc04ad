import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * A fake OAuth authorization server for tests: an issuer on an ephemeral port that publishes a
 * JWKS (one RS256 and one ES256 key) and mints access tokens with any claims, plus the tricks an
 * attacker would try (alg none, HS256 keyed with the public key, a key of its own).
 */

export interface FakeIssuer {
  /** The issuer identifier (`iss`), e.g. http://127.0.0.1:40123. */
  issuer: string;
  jwksUrl: string;
  jwks: { keys: JWK[] };
  /** Every token minted so far: none may ever appear in a log. */
  minted: Set<string>;
  /** A token signed with the issuer's RS256 key (or its ES256 key); `claims` override the defaults. */
  mint(claims?: JWTPayload & { scope?: string | undefined }, options?: { alg?: 'RS256' | 'ES256' }): Promise<string>;
  /** Unsigned: `{"alg":"none"}` and an empty signature. */
  unsigned(claims?: JWTPayload): string;
  /** HS256 with the RSA public key's PEM text as the HMAC secret (the classic key-confusion attack). */
  hmacWithPublicKey(claims?: JWTPayload): Promise<string>;
  /** Signed by a key that is not in the JWKS, under its own kid or (`sameKid`) under the real key's kid. */
  foreignKey(claims?: JWTPayload, sameKid?: boolean): Promise<string>;
  /** While down, the JWKS endpoint answers 503. */
  setDown(down: boolean): void;
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  close(): Promise<void>;
}

const RSA_KID = 'test-rsa';
const EC_KID = 'test-ec';

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export async function startFakeIssuer(defaults: { audience: string; scope?: string }): Promise<FakeIssuer> {
  const rsa = await generateKeyPair('RS256');
  const ec = await generateKeyPair('ES256');
  const rogue = await generateKeyPair('RS256');
  const jwks = {
    keys: [
      { ...(await exportJWK(rsa.publicKey)), kid: RSA_KID, alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.publicKey)), kid: EC_KID, alg: 'ES256', use: 'sig' },
    ],
  };
  const publicPem = await exportSPKI(rsa.publicKey);
  let down = false;
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks') {
      fetches += 1;
      if (down) {
        res.writeHead(503).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const minted = new Set<string>();
  const remember = (token: string) => {
    minted.add(token);
    return token;
  };
  const claimsOf = (claims: JWTPayload & { scope?: string | undefined } = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    const all: JWTPayload = {
      iss: issuer,
      aud: defaults.audience,
      sub: 'user-1',
      iat: now,
      exp: now + 600,
      scope: defaults.scope ?? 'docs:read',
      ...claims,
    };
    for (const [key, value] of Object.entries(all)) if (value === undefined) delete all[key];
    return all;
  };
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    jwks,
    minted,
    async mint(claims, options = {}) {
      const alg = options.alg ?? 'RS256';
      const key = alg === 'RS256' ? rsa.privateKey : ec.privateKey;
      return remember(
        await new SignJWT(claimsOf(claims))
          .setProtectedHeader({ alg, kid: alg === 'RS256' ? RSA_KID : EC_KID, typ: 'at+jwt' })
          .sign(key),
      );
    },
    unsigned(claims) {
      return remember(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(claims))}.`);
    },
    async hmacWithPublicKey(claims) {
      return remember(
        await new SignJWT(claimsOf(claims))
          .setProtectedHeader({ alg: 'HS256', kid: RSA_KID })
          .sign(new TextEncoder().encode(publicPem)),
      );
    },
    async foreignKey(claims, sameKid = false) {
      return remember(
        await new SignJWT(claimsOf(claims))
          .setProtectedHeader({ alg: 'RS256', kid: sameKid ? RSA_KID : 'rogue' })
          .sign(rogue.privateKey),
      );
    },
    setDown(value) {
      down = value;
    },
    jwksFetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
