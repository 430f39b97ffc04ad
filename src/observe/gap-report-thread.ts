import { Worker } from 'node:worker_threads';
import { codedError } from '../errors.js';
import { workerEntry } from '../worker-entry.js';
import type { GapReport } from './gap-report.js';

/**
 * Builds a docs-gap report on a worker thread of its own, started for the build and ended after
 * it, so that a server's main thread never reads or groups the query store (gap-report-worker.ts).
 * The worker's heap is bounded: a store is at most SVC_DOCS_QUERY_STORE_MAX_BYTES.
 */

export interface GapReportRequest {
  indexDir: string;
  /** Epoch ms; undefined = every record kept. */
  since: number | undefined;
  now: number;
  pages: string[] | undefined;
  limit: number;
}

class GapReportError extends codedError('GapReportError', 'gap_report_failed') {}

/** The worker's old generation, MB: a full store (tens of MB of JSON lines) parsed with room to spare. */
const WORKER_HEAP_MB = 512;

export function gapReportInWorker(request: GapReportRequest): Promise<GapReport> {
  const { url, execArgv } = workerEntry('gap-report-worker', import.meta.url);
  const thread = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  return new Promise<GapReport>((resolve, reject) => {
    const failed = (why: string) => reject(new GapReportError(`the docs-gap report could not be built: ${why}`));
    thread.once('message', (answer: { report?: GapReport; error?: string }) =>
      answer.report === undefined ? failed(answer.error ?? 'no report') : resolve(answer.report),
    );
    thread.once('error', (error) => failed(error.message));
    thread.once('exit', (code) => failed(`the worker stopped (exit code ${code})`));
    thread.postMessage(request);
  }).finally(() => void thread.terminate());
}
