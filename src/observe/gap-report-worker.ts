import { parentPort } from 'node:worker_threads';
import { gapReport } from './gap-report.js';
import type { GapReportRequest } from './gap-report-thread.js';
import { readQueryRecords } from './query-store.js';

/**
 * Worker thread entry: reads the query store and builds one docs-gap report. Reading and grouping
 * a full store (5,000 searches of 1,000 characters) took seconds of CPU, which on the main thread
 * stalled every request, /healthz included.
 */

parentPort?.once('message', async ({ indexDir, since, now, pages, limit }: GapReportRequest) => {
  try {
    const from = since === undefined ? undefined : new Date(since);
    const records = await readQueryRecords(indexDir, from);
    parentPort!.postMessage({ report: gapReport(records, { pages, limit, since: from, now: new Date(now) }) });
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
