import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { checkOAuthSettings, oauthUrl, scopeToken } from './oauth/settings.js';

/**
 * Settings of the HTTP server, validated once at the boundary. Every option has an environment
 * variable (SERVER_ENV below); a command-line flag, passed as `overrides`, wins over the variable, which
 * wins over the default. The README's configuration table lists them.
 */

/**
 * The response budget, in characters of text. About 3,000 tokens: enough for the sections of the
 * results most likely to hold the answer, where a whole 31-section window of five pages ran to
 * 30,000 characters and more, mostly unread.
 */
export const DEFAULT_RESPONSE_BUDGET_CHARS = 12_000;

/** Host names a local server answers to: DNS rebinding uses any other name. */
const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

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
    try {
      const url = new URL(value);
      if (url.origin !== 'null' && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash)
        return url.origin;
    } catch {
      // reported below
    }
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not an origin: expected scheme://host[:port] with no path, e.g. https://portal.example.com`,
    });
    return z.NEVER;
  });

const serverOptionsSchema = z
  .object({
    /** Interface to bind. Loopback by default: exposing the server is a deliberate choice. */
    host: z.string().trim().min(1).default('127.0.0.1'),
    /** 0 picks a free port. */
    port: z.number().int().min(0).max(65535).default(8080),
    /** Accepted Host header names (port ignored); `*` accepts any. The bound address is always accepted. */
    allowedHosts: z
      .array(hostName)
      .min(1)
      .default([...LOCALHOST_NAMES]),
    /** Accepted Origin headers (sent by browsers); requests without Origin are not browser requests. */
    allowedOrigins: z
      .array(originEntry)
      .min(1)
      .default([...LOCALHOST_NAMES]),
    /** When set, /docs requires `Authorization: Bearer <token>`. */
    authToken: z
      .string()
      .min(16, 'is too short: use at least 16 random characters, e.g. the output of `openssl rand -hex 32`')
      .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces (it travels in an HTTP header)')
      .optional(),
    /** A session with no request for this long is closed; its client gets 404 and starts a new one. */
    sessionIdleMs: z
      .number()
      .int()
      .positive()
      .default(30 * 60_000),
    /** Open sessions at most; beyond it, initialize gets 503 with Retry-After. */
    maxSessions: z.number().int().positive().default(1000),
    /** Largest accepted request body (bytes); larger gets 413. A search call is well under 2 KB. */
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .default(256 * 1024),
    /** Largest SearchDocs text result, in characters (a structured copy, when enabled, comes on top). */
    responseBudgetChars: z.number().int().min(2000).default(DEFAULT_RESPONSE_BUDGET_CHARS),
    /** Documents returned per search at most. */
    maxResults: z.number().int().min(1).max(50).default(5),
    /**
     * SearchDocs also returns structuredContent with an outputSchema. Off by default: clients such
     * as Claude Code then forward only the structured copy to the model, not the text rendering.
     */
    structuredOutput: z.boolean().default(false),
    /** Offer the second tool, ReadPage (a page or some of its sections), beside SearchDocs. */
    readPageTool: z.boolean().default(false),
    /**
     * This replica's name behind a proxy: it starts every session id, so the proxy routes a
     * session's requests back to the replica that holds it (deploy/nginx/svc-docs.conf).
     */
    replicaId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'expected 1 to 32 letters, digits, - or _ (e.g. r1)')
      .optional(),
    /** OAuth resource-server mode (oauth-settings.ts): the issuer whose JWT access tokens are accepted. */
    oauthIssuer: oauthUrl.optional(),
    /** Where the issuer publishes its signing keys (a JWKS); or oauthJwksFile, a local copy. */
    oauthJwksUrl: oauthUrl.optional(),
    oauthJwksFile: z.string().trim().min(1).optional(),
    /** This server's resource URL as clients reach it (e.g. https://docs.internal/docs): the tokens' audience. */
    oauthResource: oauthUrl.optional(),
    /** The scope a token must carry (default DEFAULT_OAUTH_SCOPE, docs:read). */
    oauthScope: scopeToken.optional(),
  })
  .strict()
  .superRefine(checkOAuthSettings);

export type ServerOptions = z.output<typeof serverOptionsSchema>;
/** What callers may pass: every option is optional and gets its default. */
export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;

export const SERVER_ENV = {
  host: 'SVC_DOCS_HOST',
  port: 'SVC_DOCS_PORT',
  allowedHosts: 'SVC_DOCS_ALLOWED_HOSTS',
  allowedOrigins: 'SVC_DOCS_ALLOWED_ORIGINS',
  authToken: 'SVC_DOCS_AUTH_TOKEN',
  sessionIdleMs: 'SVC_DOCS_SESSION_IDLE_SECONDS',
  maxSessions: 'SVC_DOCS_MAX_SESSIONS',
  maxBodyBytes: 'SVC_DOCS_MAX_BODY_BYTES',
  responseBudgetChars: 'SVC_DOCS_RESPONSE_BUDGET_CHARS',
  maxResults: 'SVC_DOCS_MAX_RESULTS',
  structuredOutput: 'SVC_DOCS_STRUCTURED_OUTPUT',
  readPageTool: 'SVC_DOCS_READ_PAGE_TOOL',
  replicaId: 'SVC_DOCS_REPLICA_ID',
  oauthIssuer: 'SVC_DOCS_OAUTH_ISSUER',
  oauthJwksUrl: 'SVC_DOCS_OAUTH_JWKS_URL',
  oauthJwksFile: 'SVC_DOCS_OAUTH_JWKS_FILE',
  oauthResource: 'SVC_DOCS_OAUTH_RESOURCE',
  oauthScope: 'SVC_DOCS_OAUTH_SCOPE',
} as const satisfies Record<keyof ServerOptions, string>;

export class ServerOptionsError extends Error {}

/** Parses and checks options, with defaults; a mistake is one line naming the option and its variable. */
export function parseServerOptions(input: ServerOptionsInput): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    const name =
      typeof key === 'string' && key in SERVER_ENV
        ? `${key} (${SERVER_ENV[key as keyof typeof SERVER_ENV]})`
        : key === undefined
          ? 'server options'
          : String(key);
    // Never echo the token back: error lines end up in logs.
    return `${name}: ${issue.message}`;
  });
  throw new ServerOptionsError(`invalid server setting ${lines.join('; ')}`);
}

/**
 * Reads the SVC_DOCS_* variables, then applies `overrides` (command-line flags, undefined = not
 * given) and the defaults. Empty variables count as unset.
 */
/** The variable naming a file that holds the token: unlike the token itself, it is not visible in `ps`. */
export const AUTH_TOKEN_FILE_ENV = 'SVC_DOCS_AUTH_TOKEN_FILE';

/** The token in `path` (surrounding whitespace dropped); an error names the file, never its content. */
function readTokenFile(path: string, source: string): string {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ServerOptionsError(
      `${source}: cannot read the token file ${path} (${code}): create it with the token alone, readable by the server's user`,
    );
  }
  const token = content.trim();
  if (token === '') throw new ServerOptionsError(`${source}: the token file ${path} is empty`);
  return token;
}

/** Command-line overrides: the options, plus a token file (`--auth-token-file`). */
type ServerOptionOverrides = ServerOptionsInput & { authTokenFile?: string };

export function serverOptionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  overridesWithFile: ServerOptionOverrides = {},
): ServerOptions {
  const { authTokenFile, ...overrides } = overridesWithFile;
  const fromEnv: ServerOptionsInput = {};
  const { text, whole, flag, list } = envReaders(env);

  fromEnv.host = text(SERVER_ENV.host);
  fromEnv.port = whole(SERVER_ENV.port);
  fromEnv.allowedHosts = list(SERVER_ENV.allowedHosts);
  fromEnv.allowedOrigins = list(SERVER_ENV.allowedOrigins);
  // A token given directly wins over a file at the same level; a flag (either) wins over a variable.
  const envTokenFile = text(AUTH_TOKEN_FILE_ENV);
  fromEnv.authToken =
    text(SERVER_ENV.authToken) ??
    (envTokenFile === undefined ? undefined : readTokenFile(envTokenFile, AUTH_TOKEN_FILE_ENV));
  if (overrides.authToken === undefined && authTokenFile !== undefined)
    overrides.authToken = readTokenFile(authTokenFile, '--auth-token-file');
  const idleSeconds = whole(SERVER_ENV.sessionIdleMs);
  fromEnv.sessionIdleMs = idleSeconds === undefined ? undefined : idleSeconds * 1000;
  fromEnv.maxSessions = whole(SERVER_ENV.maxSessions);
  fromEnv.maxBodyBytes = whole(SERVER_ENV.maxBodyBytes);
  fromEnv.responseBudgetChars = whole(SERVER_ENV.responseBudgetChars);
  fromEnv.maxResults = whole(SERVER_ENV.maxResults);
  fromEnv.structuredOutput = flag(SERVER_ENV.structuredOutput);
  fromEnv.readPageTool = flag(SERVER_ENV.readPageTool);
  fromEnv.replicaId = text(SERVER_ENV.replicaId);
  fromEnv.oauthIssuer = text(SERVER_ENV.oauthIssuer);
  fromEnv.oauthJwksUrl = text(SERVER_ENV.oauthJwksUrl);
  fromEnv.oauthJwksFile = text(SERVER_ENV.oauthJwksFile);
  fromEnv.oauthResource = text(SERVER_ENV.oauthResource);
  fromEnv.oauthScope = text(SERVER_ENV.oauthScope);

  const merged: Record<string, unknown> = {};
  for (const [key, value] of [...Object.entries(fromEnv), ...Object.entries(overrides)]) {
    if (value !== undefined) merged[key] = value;
  }
  return parseServerOptions(merged as ServerOptionsInput);
}

/** Readers of one variable each: trimmed text (blank is unset), a whole number, a 1/0 flag, a comma list. */
function envReaders(env: NodeJS.ProcessEnv) {
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const whole = (name: string): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new ServerOptionsError(`${name} must be a whole number, got "${value}"`);
    return Number(value);
  };
  const flag = (name: string): boolean | undefined => {
    const value = text(name)?.toLowerCase();
    if (value === undefined) return undefined;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    throw new ServerOptionsError(`${name} must be 1 or 0 (true/false), got "${value}"`);
  };
  const list = (name: string): string[] | undefined =>
    text(name)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return { text, whole, flag, list };
}
