import { METADATA_PATH, metadataUrlOf, type OAuthConfig } from '../../settings/oauth-config.js';

/**
 * What clients discover (RFC 9728, MCP authorization): the Protected Resource Metadata documents
 * and the WWW-Authenticate challenges that point at them. Pure functions of the configuration.
 */

interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
}

export function metadataDocument(config: OAuthConfig, resource: string): ProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [config.issuer],
    scopes_supported: [config.scope],
    bearer_methods_supported: ['header'],
    resource_name: 'svc-docs',
  };
}

/**
 * The resource each metadata path describes: the root document and /docs describe the resource
 * URL, /mcp its alias; and the path derived from each resource URL (RFC 9728 section 3.1), which
 * differs from those when the server sits under a prefix.
 */
export function metadataPaths(config: OAuthConfig, mcpPath: string, aliasPath: string): Map<string, string> {
  const [main, alias = main] = config.resources as [string, string?];
  const paths = new Map<string, string>([
    [METADATA_PATH, main],
    [`${METADATA_PATH}${mcpPath}`, main],
    [`${METADATA_PATH}${aliasPath}`, alias],
  ]);
  for (const resource of config.resources) paths.set(new URL(metadataUrlOf(resource)).pathname, resource);
  return paths;
}

/** The resource a request to `path` (/docs, /mcp, /readyz …) is for. */
export function resourceFor(config: OAuthConfig, path: string, aliasPath: string): string {
  const [main, alias = main] = config.resources as [string, string?];
  return path === aliasPath || path.startsWith(`${aliasPath}/`) ? alias : main;
}

type ChallengeError = 'invalid_token' | 'insufficient_scope';

/** `Bearer resource_metadata="…", scope="…"`, with `error="…"` first when a token was refused. */
export function bearerChallenge(config: OAuthConfig, resource: string, error?: ChallengeError): string {
  const params = [`resource_metadata="${metadataUrlOf(resource)}"`, `scope="${config.scope}"`];
  if (error !== undefined) params.unshift(`error="${error}"`);
  return `Bearer ${params.join(', ')}`;
}
