/**
 * The catalogue's entries (catalogue.ts, which spreads them into SETTINGS and checks their shape)
 * for the server's limits against floods and unfair clients (docs/security.md).
 */
export const SERVER_LIMITS = {
  writeTimeoutSeconds: {
    variable: 'SVC_DOCS_WRITE_TIMEOUT_SECONDS',
    kind: 'positive',
    default: 20,
    meaning: 'An answer its client takes none of for this long is cut off and freed (docs/security.md)',
    commands: ['serve'],
  },
  maxSessionsPerClient: {
    variable: 'SVC_DOCS_MAX_SESSIONS_PER_CLIENT',
    kind: 'positive',
    shown: 'a tenth of SVC_DOCS_MAX_SESSIONS (100)',
    meaning: 'Sessions one client holds at most (a client: docs/security.md); beyond, initialize gets 429',
    commands: ['serve'],
  },
  maxRequestsPerClient: {
    variable: 'SVC_DOCS_MAX_REQUESTS_PER_CLIENT',
    kind: 'positive',
    default: 8,
    meaning:
      'Requests one client runs at once at most, answers it has not read, its streams and search page requests included; beyond, 429',
    commands: ['serve'],
  },
  trustedProxies: {
    variable: 'SVC_DOCS_TRUSTED_PROXIES',
    kind: 'list',
    shown: 'none',
    meaning:
      'Proxies (addresses, CIDR blocks, loopback) whose X-Forwarded-For names the client, for the per-client limits',
    commands: ['serve'],
  },
} as const;
