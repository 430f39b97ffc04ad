import { z } from 'zod';
import { SETTINGS } from './catalogue.js';

/**
 * The OAuth resource-server settings (MCP authorization, RFC 9728): how they are checked, and
 * what follows from them (the resources this server answers for, where its metadata lives).
 * Pure: no I/O here.
 */

/** Where the metadata documents live (RFC 9728 section 3.1: inserted before the resource's path). */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * An https URL (http only on loopback, for local tests) without a fragment. The text is kept as
 * given: `iss` and `aud` are compared as exact strings.
 */
export const oauthUrl = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const url = URL.parse(value);
    if (url === null) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not a URL: expected e.g. https://login.example.com/realms/docs`,
      });
      return;
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    if (!secure)
      ctx.addIssue({ code: 'custom', message: `"${value}" must use https (plain http is accepted on localhost only)` });
    if (url.hash || url.username || url.password)
      ctx.addIssue({ code: 'custom', message: `"${value}" must not carry a fragment or credentials` });
  });

/** One OAuth scope (RFC 6749 section 3.3: visible ASCII except space, " and \). */
export const scopeToken = z
  .string()
  .trim()
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'expected one scope such as docs:read (visible ASCII, no spaces or quotes)');

interface OAuthFields {
  authToken?: string | undefined;
  oauthIssuer?: string | undefined;
  oauthJwksUrl?: string | undefined;
  oauthJwksFile?: string | undefined;
  oauthResource?: string | undefined;
}

/** The settings go together: an issuer needs its keys (one source) and this server's resource URL. */
export function checkOAuthSettings(options: OAuthFields, ctx: z.RefinementCtx): void {
  const issue = (path: keyof OAuthFields, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (options.oauthIssuer === undefined) {
    for (const key of ['oauthJwksUrl', 'oauthJwksFile', 'oauthResource'] as const) {
      if (options[key] !== undefined)
        issue(key, 'is set but the OAuth issuer is not: set SVC_DOCS_OAUTH_ISSUER too, or drop this setting');
    }
    return;
  }
  if ((options.oauthJwksUrl === undefined) === (options.oauthJwksFile === undefined)) {
    issue(
      'oauthJwksUrl',
      "name the issuer's signing keys in exactly one way: SVC_DOCS_OAUTH_JWKS_URL or SVC_DOCS_OAUTH_JWKS_FILE",
    );
  }
  if (options.oauthResource === undefined) {
    issue(
      'oauthResource',
      'is required with an OAuth issuer: the URL clients use to reach this server, e.g. https://docs.internal/docs (tokens must name it as their audience)',
    );
  } else if (URL.canParse(options.oauthResource) && new URL(options.oauthResource).search) {
    issue('oauthResource', 'must not carry a query string');
  }
}

/** What the resource-server mode needs at run time, derived once from the settings. */
export interface OAuthConfig {
  issuer: string;
  jwks: { url: string } | { file: string };
  /** The resource URL, then its alias (the same URL with /mcp for /docs): both are accepted audiences. */
  resources: readonly string[];
  scope: string;
}

/** The OAuth configuration, or undefined when the issuer is not set (static token or no auth). */
export function oauthConfigOf(options: OAuthFields & { oauthScope?: string | undefined }): OAuthConfig | undefined {
  const { oauthIssuer: issuer, oauthJwksUrl, oauthJwksFile, oauthResource: resource } = options;
  if (issuer === undefined || resource === undefined) return undefined;
  const jwks = oauthJwksUrl !== undefined ? { url: oauthJwksUrl } : { file: oauthJwksFile ?? '' };
  const alias = resource.replace(/\/docs$/, '/mcp');
  return {
    issuer,
    jwks,
    resources: alias === resource ? [resource] : [resource, alias],
    scope: options.oauthScope ?? SETTINGS.oauthScope.default,
  };
}

/**
 * The metadata document's URL for a resource: the well-known path inserted between the origin
 * and the resource's path (https://h/docs → https://h/.well-known/oauth-protected-resource/docs).
 */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${METADATA_PATH}${path}`;
}
