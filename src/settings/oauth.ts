/**
 * The catalogue's entries (catalogue.ts, which spreads them into SETTINGS and checks their shape)
 * for the OAuth resource-server mode (src/mcp/oauth/): which issuer's access tokens `serve`
 * accepts, for which resource and scope.
 */
export const OAUTH_SETTINGS = {
  oauthIssuer: {
    variable: 'SVC_DOCS_OAUTH_ISSUER',
    flag: '--oauth-issuer <url>',
    kind: 'text',
    shown: 'none',
    meaning: 'Accept OAuth access tokens (JWTs) from this issuer',
    commands: ['serve'],
  },
  oauthJwksUrl: {
    variable: 'SVC_DOCS_OAUTH_JWKS_URL',
    flag: '--oauth-jwks-url <url>',
    kind: 'text',
    shown: 'none',
    meaning:
      'Where the issuer publishes its signing keys (a JWKS URL); or name a local copy (SVC_DOCS_OAUTH_JWKS_FILE)',
    commands: ['serve'],
  },
  oauthJwksFile: {
    variable: 'SVC_DOCS_OAUTH_JWKS_FILE',
    flag: '--oauth-jwks-file <path>',
    kind: 'text',
    shown: 'none',
    meaning: "The issuer's signing keys from a local file, instead of SVC_DOCS_OAUTH_JWKS_URL",
    commands: ['serve'],
  },
  oauthResource: {
    variable: 'SVC_DOCS_OAUTH_RESOURCE',
    flag: '--oauth-resource <url>',
    kind: 'text',
    shown: 'none',
    meaning: "This server as clients reach it, e.g. https://docs.internal/docs: the tokens' audience",
    commands: ['serve'],
  },
  oauthScope: {
    variable: 'SVC_DOCS_OAUTH_SCOPE',
    flag: '--oauth-scope <scope>',
    kind: 'text',
    default: 'docs:read',
    meaning: 'The scope an OAuth token must carry',
    commands: ['serve'],
  },
} as const;
