import type { GapReport } from '../observe/gap-report.js';
import { gapReportInWorker, type GapReportRequest } from '../observe/gap-report-thread.js';
import type { QueryStore } from '../observe/query-store.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import type { SearchEngine } from '../search/types.js';

/**
 * The search page's docs-gap report, built off the request path: in a worker thread
 * (gap-report-thread.ts), one build at a time, shared by every request that waits for it, and
 * cached. A build runs when searches were recorded or the index changed since the last one, and
 * at most once per REBUILD_MS: in between, the last report is shown. Grouping 5,000 recorded
 * searches on the main thread at every GET stalled /healthz for 2.7–11.7 s (issue 40).
 */

export interface ReportSourceOptions {
  store?: QueryStore;
  engine: SearchEngine;
  pages: () => PageIndex;
  /** Builds one report; tests count the builds. */
  build?: (request: GapReportRequest) => Promise<GapReport>;
  clock?: () => number;
}

/** What the page shows: the report, or why there is none. */
export type ReportState = { report: GapReport } | { off: true } | { failed: string };

const REPORT_DAYS = 7;
const REPORT_LIMIT = 10;
/** A report is rebuilt at least this often while the page is read (the week's window moves). */
const REPORT_MAX_AGE_MS = 60_000;
/** …and at most this often, however many searches are recorded meanwhile. */
export const REBUILD_MS = 5_000;

/** The index's page names, worked out once per loaded index. */
function pageNames(): (index: PageIndex) => string[] {
  const names = new WeakMap<PageIndex, string[]>();
  return (index) => {
    let list = names.get(index);
    if (list === undefined) names.set(index, (list = index.documents.map((d) => `${d.kb}/${d.path}`)));
    return list;
  };
}

export function reportSource(options: ReportSourceOptions): () => Promise<ReportState> {
  const build = options.build ?? gapReportInWorker;
  const clock = options.clock ?? Date.now;
  const names = pageNames();
  let cached: { key: string; at: number; report: GapReport } | undefined;
  let building: Promise<ReportState> | undefined;
  const rebuild = async (store: QueryStore, key: string): Promise<ReportState> => {
    try {
      await store.flush();
      const now = clock();
      const request = { indexDir: store.indexDir, since: now - REPORT_DAYS * 86_400_000, now, limit: REPORT_LIMIT };
      const report = await build({ ...request, pages: names(options.pages()) });
      cached = { key, at: clock(), report };
      return { report };
    } catch (error) {
      return cached === undefined ? { failed: (error as Error).message } : { report: cached.report };
    } finally {
      building = undefined;
    }
  };
  return async () => {
    const { store } = options;
    if (store === undefined) return { off: true };
    const key = `${store.recorded}:${options.engine.summary().builtAt}`;
    if (cached !== undefined) {
      const age = clock() - cached.at;
      if (age < REBUILD_MS || (cached.key === key && age < REPORT_MAX_AGE_MS)) return { report: cached.report };
    }
    building ??= rebuild(store, key);
    return building;
  };
}
