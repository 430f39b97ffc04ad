/**
 * The catalogue's entries (catalogue.ts, which spreads them into SETTINGS and checks their shape)
 * for what the server tells its operators: the log, /metrics, the search record and the search
 * page (docs/observability.md).
 */
/** The server log's formats (observe/pretty-log.ts writes them): settings name them, the log imports them. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const OBSERVABILITY_SETTINGS = {
  logFormat: {
    variable: 'SVC_DOCS_LOG_FORMAT',
    flag: '--log-format <format>',
    kind: 'text',
    shown: '`pretty` on a terminal, else `json`',
    meaning: "The server log's format: `json` (one object per line) or `pretty` (the same lines for people)",
    commands: ['serve'],
  },
  logQueries: {
    variable: 'SVC_DOCS_LOG_QUERIES',
    kind: 'boolean',
    shown: 'on when the server listens on loopback only',
    meaning: 'Search terms in the request log (docs/observability.md)',
    commands: ['serve'],
  },
  metrics: {
    variable: 'SVC_DOCS_METRICS',
    kind: 'boolean',
    default: true,
    meaning: 'Serve Prometheus metrics at `/metrics` (the Host and token checks of `/readyz`)',
    commands: ['serve'],
  },
  metricsToken: {
    variable: 'SVC_DOCS_METRICS_TOKEN',
    kind: 'text',
    shown: 'none',
    meaning: 'A bearer token for `/metrics` alone (16+ visible ASCII characters)',
    commands: ['serve'],
  },
  queryStore: {
    variable: 'SVC_DOCS_QUERY_STORE',
    kind: 'boolean',
    default: true,
    meaning: 'Record each SearchDocs call in `<index>/queries.jsonl` for the docs-gap report (`svc-docs report`)',
    commands: ['serve'],
  },
  queryStoreMaxBytes: {
    variable: 'SVC_DOCS_QUERY_STORE_MAX_BYTES',
    kind: 'whole',
    default: 4 * 1024 * 1024,
    meaning: "The search record's two files (it rotates) together at most this many bytes (at least 65536)",
    commands: ['serve'],
  },
  webPage: {
    variable: 'SVC_DOCS_WEB_PAGE',
    kind: 'boolean',
    default: true,
    meaning: 'Serve the search page for people at `/` (the Host, Origin and token checks of `/docs`)',
    commands: ['serve'],
  },
} as const;
