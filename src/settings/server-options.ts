import { z } from 'zod';
import { codedError } from '../errors.js';
import { SETTINGS, type SettingName } from './catalogue.js';
import { proxyTrust } from '../http/client-identity.js';
import { checkOAuthSettings, oauthUrl, scopeToken } from './oauth-config.js';

/**
 * The HTTP server's options, validated once at its boundary: what `serve` hands it (read from flags
 * and variables by src/settings/) and what a program embedding the server passes. The defaults
 * are the settings catalogue's; a mistake names the option and its variable.
 */

const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*|\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/,
    'expected a host name without scheme or port (e.g. docs.internal, 10.0.0.5, [::1]) or *',
  );

/** An allowed Origin is a host name (any scheme and port) or an exact origin such as https://portal.example.com. */
const originEntry = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (!value.includes('://')) {
      const parsed = hostName.safeParse(value);
      if (parsed.success) return parsed.data;
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is neither a host name nor an origin like https://portal.example.com`,
      });
      return z.NEVER;
    }
    const url = URL.parse(value);
    const bare = url !== null && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    if (bare && url.origin !== 'null') return url.origin;
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not an origin: expected scheme://host[:port] with no path, e.g. https://portal.example.com`,
    });
    return z.NEVER;
  });

/** A bearer token: long enough to resist guessing, and sendable in an HTTP header. */
export const bearerToken = z
  .string()
  .min(16, 'is too short: use at least 16 random characters, e.g. the output of `openssl rand -hex 32`')
  // Bounded: it travels in a header (Node takes 16 KB of them), and redaction looks for it in every log line.
  .max(1024, 'is too long: use at most 1,024 characters, e.g. the output of `openssl rand -hex 32`')
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces (it travels in an HTTP header)');

/** A trusted proxy: an address, a CIDR block, or loopback / linklocal / uniquelocal. */
const proxyEntry = z
  .string()
  .trim()
  .refine((value) => {
    try {
      proxyTrust([value]);
      return true;
    } catch {
      return false;
    }
  }, 'expected an IP address, a CIDR block such as 10.0.0.0/8, or loopback, linklocal, uniquelocal');

const positiveInt = z.number().int().positive();

const serverOptionsShape = z
  .object({
    /** Interface to bind. Loopback by default: exposing the server is a deliberate choice. */
    host: z.string().trim().min(1).default(SETTINGS.host.default),
    /** 0 picks a free port. */
    port: z.number().int().min(0).max(65535).default(SETTINGS.port.default),
    /** Accepted Host header names (port ignored); `*` accepts any. The bound address is always accepted. */
    allowedHosts: z
      .array(hostName)
      .min(1)
      .default([...SETTINGS.allowedHosts.default]),
    /** Accepted Origin headers (sent by browsers); requests without Origin are not browser requests. */
    allowedOrigins: z
      .array(originEntry)
      .min(1)
      .default([...SETTINGS.allowedOrigins.default]),
    /** When set, /docs requires `Authorization: Bearer <token>`. */
    authToken: bearerToken.optional(),
    /** A session with no request for this long is closed; its client gets 404 and starts a new one. */
    sessionIdleMs: positiveInt.default(SETTINGS.sessionIdleSeconds.default * 1000),
    /** A response whose client takes none of it for this long is cut off and its memory freed. */
    writeTimeoutMs: positiveInt.default(SETTINGS.writeTimeoutSeconds.default * 1000),
    /** Open sessions at most; beyond it, initialize gets 503 with Retry-After. */
    maxSessions: positiveInt.default(SETTINGS.maxSessions.default),
    /** Sessions one client (docs/security.md) holds at most; beyond it, 429. Default: a tenth of maxSessions. */
    maxSessionsPerClient: positiveInt.optional(),
    /** Requests one client runs at once at most, unread answers included; beyond it, 429. */
    maxRequestsPerClient: positiveInt.default(SETTINGS.maxRequestsPerClient.default),
    /** Proxies whose X-Forwarded-For names the client; none by default (the peer is the client). */
    trustedProxies: z.array(proxyEntry).default([]),
    /** Largest accepted request body (bytes); larger gets 413. A search call is well under 2 KB. */
    maxBodyBytes: z.number().int().min(1024).default(SETTINGS.maxBodyBytes.default),
    /** Largest SearchDocs text result, in characters. */
    responseBudgetChars: z.number().int().min(2000).default(SETTINGS.responseBudgetChars.default),
    /** Largest page answer of resources/read, in characters: a longer page is read in parts (`?part=2`, …). */
    pageBudgetChars: z.number().int().min(4000).default(SETTINGS.pageBudgetChars.default),
    /** Documents returned per search at most. */
    maxResults: z.number().int().min(1).max(50).default(SETTINGS.maxResults.default),
    /**
     * This replica's name behind a proxy: it starts every session id, so the proxy routes a
     * session's requests back to the replica that holds it (deploy/nginx/svc-docs.conf).
     */
    replicaId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'expected 1 to 32 letters, digits, - or _ (e.g. r1)')
      .optional(),
    /** OAuth resource-server mode (oauth-config.ts): the issuer whose JWT access tokens are accepted. */
    oauthIssuer: oauthUrl.optional(),
    /** Where the issuer publishes its signing keys (a JWKS); or oauthJwksFile, a local copy. */
    oauthJwksUrl: oauthUrl.optional(),
    oauthJwksFile: z.string().trim().min(1).optional(),
    /** This server's resource URL as clients reach it (e.g. https://docs.internal/docs): the tokens' audience. */
    oauthResource: oauthUrl.optional(),
    /** The scope a token must carry (default SETTINGS.oauthScope.default, applied by oauthConfigOf). */
    oauthScope: scopeToken.optional(),
    /** Search terms in the request log; unset: logged when the server listens on loopback only. */
    logQueries: z.boolean().optional(),
    /** GET /metrics (Prometheus), behind the same Host and token checks as /readyz. */
    metrics: z.boolean().default(SETTINGS.metrics.default),
    /** A token for /metrics alone (a scraper need not hold the token that reads the docs). */
    metricsToken: bearerToken.optional(),
    /** Record each search in <index>/queries.jsonl for the docs-gap report (`svc-docs report`). */
    queryStore: z.boolean().default(SETTINGS.queryStore.default),
    /** The query store's two files together at most this many bytes. */
    queryStoreMaxBytes: z.number().int().min(65_536).default(SETTINGS.queryStoreMaxBytes.default),
    /** The search page for people at / (same Host, Origin and token checks as /docs). */
    webPage: z.boolean().default(SETTINGS.webPage.default),
  })
  .strict();

const serverOptionsSchema = serverOptionsShape
  .superRefine(checkOAuthSettings)
  .transform((o) => ({ ...o, maxSessionsPerClient: o.maxSessionsPerClient ?? Math.ceil(o.maxSessions / 10) }));

export type ServerOptions = z.output<typeof serverOptionsSchema>;
/** Every option's name: those that are settings of the same name are read from the catalogue's variables. */
export const SERVER_OPTION_NAMES = Object.keys(serverOptionsShape.shape) as (keyof ServerOptions)[];
/** What callers may pass: every option is optional and gets its default. */
export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;

/** Where an option differs in name from its setting (the variables are in seconds). */
const SETTING_OF: Partial<Record<keyof ServerOptions, SettingName>> = {
  sessionIdleMs: 'sessionIdleSeconds',
  writeTimeoutMs: 'writeTimeoutSeconds',
};

function optionName(key: PropertyKey | undefined): string {
  if (key === undefined) return 'server options';
  const setting = SETTING_OF[key as keyof ServerOptions] ?? key;
  return setting in SETTINGS ? `${String(key)} (${SETTINGS[setting as SettingName].variable})` : String(key);
}

/** Options the server cannot run with: one line naming each option at fault and its variable. */
export class ServerOptionsError extends codedError('ServerOptionsError', 'invalid_setting') {}

/** Parses and checks options, with defaults; a mistake is one line naming the option and its variable. */
export function parseServerOptions(input: ServerOptionsInput): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Never echo the token back: error lines end up in logs.
  const lines = parsed.error.issues.map((issue) => `${optionName(issue.path[0])}: ${issue.message}`);
  throw new ServerOptionsError(`invalid server setting ${lines.join('; ')}`);
}
