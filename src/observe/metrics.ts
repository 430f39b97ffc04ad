import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ERAS, type Era, type McpRequest } from './mcp-request.js';
import type { SearchOutcome } from './search-outcome.js';

/**
 * The server's Prometheus metrics (prom-client, one registry per server): MCP requests by era,
 * method and status; each SearchDocs call's latency, result count, characters and whether the
 * docs covered it; open sessions; the served index; and the process (prom-client's defaults).
 */

/** What the metrics read when scraped. */
export interface MetricSources {
  /** Open 2025-era sessions. */
  sessions(): number;
  /** The index being served. */
  index(): { documents: number; sections: number; builtAt: string };
  /** Index reloads so far (swapped in, and refused), when the server reloads. */
  reloads?(): { reloaded: number; refused: number };
}

/** Methods counted by name; any other a client sends is counted as `other`, so clients cannot add series. */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
  'completion/complete',
  'subscriptions/listen',
  'notifications/initialized',
  'notifications/cancelled',
  'batch',
  'response',
  'GET',
  'DELETE',
]);

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const RESULT_BUCKETS = [0, 1, 2, 3, 4, 5, 10, 20, 50];
const CHARACTER_BUCKETS = [500, 1000, 2000, 4000, 8000, 12000, 16000, 24000, 32000, 64000];

type EraLabel = Era | 'unknown';

export class ServerMetrics {
  readonly registry = new Registry();
  private processMetrics = false;
  private readonly requests: Counter<'era' | 'method' | 'status'>;
  private readonly searchSeconds: Histogram<'era'>;
  private readonly searchResults: Histogram<'era'>;
  private readonly searchCharacters: Histogram<'era'>;
  private readonly notCovered: Counter<'era'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'svc_docs_mcp_requests_total',
      help: 'MCP requests (POST, GET and DELETE on /docs) by protocol era, JSON-RPC method and HTTP status',
      labelNames: ['era', 'method', 'status'],
      registers,
    });
    const byEra = { labelNames: ['era'] as const, registers };
    const histogram = (name: string, help: string, buckets: number[]) =>
      new Histogram({ name, help, buckets, ...byEra });
    this.searchSeconds = histogram(
      'svc_docs_search_duration_seconds',
      'Time a SearchDocs call took to search and render its answer',
      SECONDS_BUCKETS,
    );
    this.searchResults = histogram('svc_docs_search_results', 'Results a SearchDocs call found', RESULT_BUCKETS);
    this.searchCharacters = histogram(
      'svc_docs_search_response_characters',
      'Characters of text a SearchDocs call returned to the model',
      CHARACTER_BUCKETS,
    );
    this.notCovered = new Counter({
      name: 'svc_docs_search_not_covered_total',
      help: 'SearchDocs calls the docs did not cover (no result above the lowest relevance band)',
      ...byEra,
    });
    for (const era of ERAS) {
      for (const metric of [this.searchSeconds, this.searchResults, this.searchCharacters]) metric.zero({ era });
      this.notCovered.inc({ era }, 0);
    }
    sourceMetrics(sources, registers);
  }

  /** An MCP request ended; `request` is undefined when it was refused before it was read. */
  requestEnded(request: McpRequest | undefined, status: number): void {
    const method = request === undefined ? 'unknown' : KNOWN_METHODS.has(request.method) ? request.method : 'other';
    this.requests.inc({ era: request?.era ?? 'unknown', method, status: String(status) });
  }

  searched(outcome: SearchOutcome, era: EraLabel): void {
    this.searchSeconds.observe({ era }, outcome.ms / 1000);
    this.searchResults.observe({ era }, outcome.results);
    this.searchCharacters.observe({ era }, outcome.chars);
    if (outcome.notCovered) this.notCovered.inc({ era });
  }

  /** The text exposition format, and its content type. Process metrics start with the first scrape. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Gauges (and the reload counter) read from the server when scraped. */
function sourceMetrics(sources: MetricSources, registers: Registry[]): void {
  const index = () => {
    try {
      return sources.index();
    } catch {
      return undefined;
    }
  };
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  gauge('svc_docs_sessions_open', 'Open 2025-era MCP sessions', () => sources.sessions());
  gauge('svc_docs_index_documents', 'Pages in the served index', () => index()?.documents);
  gauge('svc_docs_index_sections', 'Sections in the served index', () => index()?.sections);
  const builtAt = () => {
    const at = Date.parse(index()?.builtAt ?? '');
    return Number.isNaN(at) ? undefined : at / 1000;
  };
  gauge('svc_docs_index_build_timestamp_seconds', 'When the served index was built (Unix time)', builtAt);
  gauge('svc_docs_index_build_age_seconds', 'Seconds since the served index was built', () => {
    const at = builtAt();
    return at === undefined ? undefined : Date.now() / 1000 - at;
  });
  const counted = { reloaded: 0, refused: 0 };
  new Counter({
    name: 'svc_docs_index_reloads_total',
    help: 'Index reloads: a new build swapped in (reloaded) or refused, the old one serving on (refused)',
    labelNames: ['result'],
    registers,
    collect() {
      const now = sources.reloads?.() ?? counted;
      for (const result of ['reloaded', 'refused'] as const) {
        this.inc({ result }, Math.max(0, now[result] - counted[result]));
        counted[result] = now[result];
      }
    },
  });
}
