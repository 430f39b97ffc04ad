/**
 * The catalogue's entries (catalogue.ts spreads them into SETTINGS) for a website corpus: the
 * bounds a crawl keeps to, so a hostile or broken site (a link maze, a huge page, a slow server, a
 * sitemap of a million entries) costs a bounded time and space and the build goes on
 * (docs/sources.md).
 */
/** A crawl bound both `index` and `serve --watch` read: a positive number with its default. */
function crawlBound<V extends `SVC_DOCS_WEB_${string}`>(variable: V, value: number, meaning: string) {
  return { variable, kind: 'positive', default: value, meaning, commands: ['index', 'serve'] } as const;
}

export const WEB_SETTINGS = {
  webMaxPages: crawlBound(
    'SVC_DOCS_WEB_MAX_PAGES',
    5000,
    'Pages read from one website corpus at most (sitemap entries and followed links alike)',
  ),
  webMaxPageBytes: crawlBound(
    'SVC_DOCS_WEB_MAX_PAGE_BYTES',
    4 * 1024 * 1024,
    'A larger web page (or sitemap) is cut off at this many bytes and skipped with a line',
  ),
  webMaxTotalBytes: crawlBound(
    'SVC_DOCS_WEB_MAX_TOTAL_BYTES',
    512 * 1024 * 1024,
    'Bytes downloaded from one website corpus per crawl at most; the crawl stops there',
  ),
  webConcurrency: crawlBound('SVC_DOCS_WEB_CONCURRENCY', 4, 'Requests to one website in flight at once at most'),
  webRequestsPerSecond: crawlBound(
    'SVC_DOCS_WEB_REQUESTS_PER_SECOND',
    8,
    'Requests started per second to one website at most',
  ),
  webTimeoutSeconds: crawlBound(
    'SVC_DOCS_WEB_TIMEOUT_SECONDS',
    30,
    'Time limit of each request to a website, its whole answer included',
  ),
  webPollSeconds: {
    variable: 'SVC_DOCS_WEB_POLL_SECONDS',
    kind: 'positive',
    default: 3600,
    meaning:
      'How often `serve --watch` crawls a website corpus again (conditional requests: unchanged pages are not downloaded)',
    commands: ['serve'],
  },
} as const;

/** A website crawl's bounds, as the indexer takes them (indexer/sources/crawl.ts). */
export interface WebLimits {
  maxPages: number;
  maxPageBytes: number;
  maxTotalBytes: number;
  concurrency: number;
  requestsPerSecond: number;
  timeoutMs: number;
}

/** The crawl bounds given (a command's values), each else its default. */
export function webLimits(values: { [N in keyof typeof WEB_SETTINGS]?: number } = {}): WebLimits {
  const value = (name: keyof typeof WEB_SETTINGS) => values[name] ?? WEB_SETTINGS[name].default;
  return {
    maxPages: value('webMaxPages'),
    maxPageBytes: value('webMaxPageBytes'),
    maxTotalBytes: value('webMaxTotalBytes'),
    concurrency: value('webConcurrency'),
    requestsPerSecond: value('webRequestsPerSecond'),
    timeoutMs: value('webTimeoutSeconds') * 1000,
  };
}

/** The defaults, for callers that pass none (tests, library users). */
export const DEFAULT_WEB_LIMITS = webLimits();
