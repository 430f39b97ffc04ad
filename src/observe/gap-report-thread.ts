import { Worker } from 'node:worker_threads';
import { SvcDocsError } from '../errors.js';
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

class GapReportError extends SvcDocsError<'gap_report_failed'> {
  override name = 'GapReportError';

  constructor(message: string) {
    super('gap_report_failed', `the docs-gap report could not be built: ${message}`);
  }
}

/** The worker's old generation, MB: a full store (tens of MB of JSON lines) parsed with room to spare. */
const WORKER_HEAP_MB = 512;

export function gapReportInWorker(request: GapReportRequest): Promise<GapReport> {
  const { url, execArgv } = workerEntry('gap-report-worker', import.meta.url);
  const thread = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  return new Promise<GapReport>((resolve, reject) => {
    thread.once('message', (answer: { report?: GapReport; error?: string }) => {
      if (answer.report !== undefined) resolve(answer.report);
      else reject(new GapReportError(answer.error ?? 'no report'));
    });
    thread.once('error', (error) => reject(new GapReportError(error.message)));
    thread.once('exit', (code) => reject(new GapReportError(`the worker stopped (exit code ${code})`)));
    thread.postMessage(request);
  }).finally(() => void thread.terminate());
}
