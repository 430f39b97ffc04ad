import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GapReport, gapReport } from '../../src/observe/gap-report.js';
import type { GapReportRequest } from '../../src/observe/gap-report-thread.js';
import { QueryStore, readQueryRecords } from '../../src/observe/query-store.js';
import type { SearchEngine } from '../../src/search/types.js';
import { REBUILD_MS, reportSource } from '../../src/web/report-source.js';

/**
 * The search page's docs-gap report (issue 40, finding 1): built by the given builder (a worker in
 * the server), once for any number of requests waiting at the same time, cached, and rebuilt at
 * most once per REBUILD_MS however many searches are recorded meanwhile.
 */

const engine = { summary: () => ({ builtAt: '2026-12-01T00:00:00Z' }) } as unknown as SearchEngine;
const pages = () => ({ documents: [{ kb: 'kb', path: 'a.md', sectionCount: 1 }], sections: [] }) as never;

function setup() {
  const store = new QueryStore({
    indexDir: mkdtempSync(join(tmpdir(), 'svc-docs-report-source-')),
    maxBytes: 64 * 1024,
    log: () => undefined,
  });
  const builds: GapReportRequest[] = [];
  let now = 1_000_000;
  const build = async (request: GapReportRequest): Promise<GapReport> => {
    builds.push(request);
    const records = await readQueryRecords(request.indexDir, new Date(request.since!));
    return gapReport(records, { pages: request.pages, limit: request.limit, now: new Date(request.now) });
  };
  const source = reportSource({ store, engine, pages, build, clock: () => now });
  return { store, builds, source, advance: (ms: number) => (now += ms) };
}

const record = (store: QueryStore, term: string) =>
  store.record({ term, results: 0, bestConfidence: undefined, notCovered: true, chars: 10, pages: [], ms: 1 }, 'c');

describe("the search page's report source", () => {
  it('builds once for three requests at once, and shows the searches recorded', async () => {
    const { store, builds, source } = setup();
    record(store, 'banana bread');
    const states = await Promise.all([source(), source(), source()]);
    expect(builds).toHaveLength(1);
    expect(builds[0]!.pages).toEqual(['kb/a.md']);
    for (const state of states) expect(state).toMatchObject({ report: { searches: 1, notCoveredSearches: 1 } });
  });

  it('serves the cached report until something changed, and rebuilds at most once per interval', async () => {
    const { store, builds, source, advance } = setup();
    await source();
    advance(REBUILD_MS * 2);
    await source();
    expect(builds).toHaveLength(1);
    record(store, 'first');
    advance(1);
    await source();
    expect(builds).toHaveLength(2);
    record(store, 'second');
    advance(REBUILD_MS / 2);
    expect(await source()).toMatchObject({ report: { searches: 1 } });
    expect(builds).toHaveLength(2);
    advance(REBUILD_MS);
    expect(await source()).toMatchObject({ report: { searches: 2 } });
    expect(builds).toHaveLength(3);
  });

  it('says the report is off without a store, and why a build failed', async () => {
    expect(await reportSource({ engine, pages })()).toEqual({ off: true });
    const { store } = setup();
    const failing = reportSource({ store, engine, pages, build: () => Promise.reject(new Error('heap limit')) });
    expect(await failing()).toEqual({ failed: 'heap limit' });
  });
});
