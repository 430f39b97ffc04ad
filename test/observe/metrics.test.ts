import { describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION, raw } from '../helpers/mcp-client.js';
import { type Exposition, parseExposition, sampleValue } from '../helpers/prometheus.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * GET /metrics: after real MCP searches over both protocol eras, a Prometheus scrape (parsed as
 * the exposition format, not searched as text) counts them by era and method and holds their
 * latency histogram; and /metrics has the access checks of /readyz, or a token of its own.
 */

const { engine, serve } = useServedEngine(() => openEngine(bundledIndex()));

const ON_TOPIC = ['webhook signature verification', 'rate limits', 'custom trigger payload schema'];
const OFF_TOPIC = 'banana bread recipe';
const PER_ERA = 50;
/** Of each era's searches, this many are off-topic (not covered). */
const OFF_TOPIC_PER_ERA = 10;

function terms(): string[] {
  return Array.from({ length: PER_ERA }, (_, i) =>
    i < OFF_TOPIC_PER_ERA ? OFF_TOPIC : ON_TOPIC[i % ON_TOPIC.length]!,
  );
}

async function scrape(base: string, headers: Record<string, string> = {}): Promise<Exposition> {
  const response = await raw(`${base}/metrics`, { method: 'GET', headers });
  expect(response.status, response.text).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(response.text);
}

/** A histogram's buckets for `labels`, checked to be cumulative and to end in +Inf = _count. */
function histogram(exposition: Exposition, name: string, labels: Record<string, string>) {
  const buckets = exposition.samples
    .filter((s) => s.name === `${name}_bucket` && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .map((s) => ({ le: Number(s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : s.labels.le), value: s.value }))
    .sort((a, b) => a.le - b.le);
  const count = sampleValue(exposition, `${name}_count`, labels);
  expect(buckets.length).toBeGreaterThan(5);
  for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
  expect(buckets.at(-1)).toEqual({ le: Number.POSITIVE_INFINITY, value: count });
  return { buckets, count, sum: sampleValue(exposition, `${name}_sum`, labels) };
}

describe('/metrics', () => {
  it('counts 100 MCP searches by era and method, with their latency histogram', { timeout: 120_000 }, async () => {
    const server = await serve();
    const base = server.url.replace(/\/docs$/, '');
    const legacy = await connectClient(server.url);
    const modern = await connectV2(server.url, { pin: MODERN_VERSION });
    try {
      for (const searchTerm of terms()) {
        await legacy.client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
        await modern.client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
      }
      const exposition = await scrape(base);
      expect(exposition.types.get('svc_docs_mcp_requests_total')).toBe('counter');
      expect(exposition.types.get('svc_docs_search_duration_seconds')).toBe('histogram');
      for (const era of ['2025', '2026-07-28']) {
        const calls = { era, method: 'tools/call', status: '200' };
        expect(sampleValue(exposition, 'svc_docs_mcp_requests_total', calls)).toBe(PER_ERA);
        const latency = histogram(exposition, 'svc_docs_search_duration_seconds', { era });
        expect(latency.count).toBe(PER_ERA);
        expect(latency.sum).toBeGreaterThan(0);
        expect(histogram(exposition, 'svc_docs_search_results', { era }).count).toBe(PER_ERA);
        const characters = histogram(exposition, 'svc_docs_search_response_characters', { era });
        expect(characters.sum).toBeGreaterThan(PER_ERA * 200);
        expect(sampleValue(exposition, 'svc_docs_search_not_covered_total', { era })).toBe(OFF_TOPIC_PER_ERA);
      }
      expect(sampleValue(exposition, 'svc_docs_mcp_requests_total', { era: '2025', method: 'initialize' })).toBe(1);
      expect(sampleValue(exposition, 'svc_docs_sessions_open')).toBe(1);
      const summary = engine().summary();
      expect(sampleValue(exposition, 'svc_docs_index_documents')).toBe(summary.documents);
      expect(sampleValue(exposition, 'svc_docs_index_sections')).toBe(summary.sections);
      expect(sampleValue(exposition, 'svc_docs_index_build_timestamp_seconds')).toBe(
        Date.parse(summary.builtAt) / 1000,
      );
      expect(sampleValue(exposition, 'svc_docs_index_build_age_seconds')).toBeGreaterThan(0);
      // prom-client's process metrics.
      expect(sampleValue(exposition, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('has the Host and token checks of /readyz, or a token of its own', async () => {
    const token = 'docs-token-0123456789abcdef';
    const metricsToken = 'scrape-token-0123456789abcdef';
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    const status = async (base: string, headers: Record<string, string> = {}) =>
      (await raw(`${base}/metrics`, { method: 'GET', headers })).status;

    const withToken = (await serve({ authToken: token })).url.replace(/\/docs$/, '');
    expect(await status(withToken)).toBe(401);
    expect(await status(withToken, bearer(token))).toBe(200);
    expect(await status(withToken, { ...bearer(token), host: 'evil.example' })).toBe(403);

    const own = (await serve({ metricsToken })).url.replace(/\/docs$/, '');
    expect(await status(own)).toBe(401);
    expect(await status(own, bearer(`${metricsToken}x`))).toBe(401);
    expect(await status(own, bearer(metricsToken))).toBe(200);

    const both = (await serve({ authToken: token, metricsToken })).url.replace(/\/docs$/, '');
    expect(await status(both, bearer(metricsToken))).toBe(200);
    expect(await status(both, bearer(token))).toBe(200);
    expect(await status(both)).toBe(401);

    const off = (await serve({ metrics: false })).url.replace(/\/docs$/, '');
    expect(await status(off)).toBe(404);
  });
});
