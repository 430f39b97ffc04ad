import type { SearchEngine } from '../../src/search/types.js';

/** What a load run is given and what it reports (bench/speed/load.ts runs it). */

export interface LoadOptions {
  engine: SearchEngine;
  /** Sessions of the churn phase. */
  sessions: number;
  /** Every n-th churn session is abandoned without DELETE. */
  abandonEvery: number;
  /** Of the abandoned sessions, every n-th is a hung client holding an unread SSE stream. */
  hungEvery: number;
  /** SearchDocs calls per churn session. */
  searchesPerSession: number;
  /** SearchDocs calls of the storm phase, all sessions together. */
  searches: number;
  /** Sessions working at once (churn workers, storm sessions). */
  concurrency: number;
  cap: { maxSessions: number; over: number };
  /** Idle timeout of both servers: abandoned sessions are reclaimed after it. */
  sessionIdleMs: number;
  /** The whole run fails if it takes longer than this. */
  deadlineMs: number;
  /** Search terms, used in turn; each must find at least one result in the engine's index. */
  terms?: readonly string[];
  /** Progress lines (phase starts), for the command line. */
  progress?: (line: string) => void;
}

export interface MemorySample {
  heapUsedBytes: number;
  rssBytes: number;
}

export interface LoadReport {
  sessions: {
    /** Sessions the churn phase opened, the storm phase's, then how many were closed with DELETE, and abandoned (of them, hung). */
    churned: number;
    storm: number;
    closed: number;
    abandoned: number;
    hung: number;
    /** Sessions the servers closed for idleness (from their logs). */
    expired: number;
    /** Most sessions open at once on the main server. */
    peak: number;
  };
  requests: {
    /** SearchDocs calls made, and how many failed (exception, isError, no results). */
    searches: number;
    searchFailures: number;
    /** HTTP requests the servers answered, by status (from their request logs). */
    byStatus: Record<string, number>;
    total: number;
    /** Answers with status ≥ 500 other than the cap phase's 503s. */
    serverErrors: number;
  };
  cap: {
    maxSessions: number;
    /** Sessions held at the cap, and the initializes beyond it. */
    held: number;
    attemptedOver: number;
    /** Of those, answered 503 with a Retry-After and a JSON-RPC error body. */
    refusedAtCap: number;
    /** Answers beyond the cap that were anything else (must be 0). */
    unexpected: string[];
    /** Searches the held sessions made while the cap was hit, and failures among them. */
    searchesAtCap: number;
    /** New sessions opened after slots were freed by DELETE, and after abandoned ones expired. */
    reopenedAfterDelete: number;
    reopenedAfterExpiry: number;
  };
  /** Every failure below the cap, described (must be empty). */
  failures: string[];
  memory: { before: MemorySample; after: MemorySample; heapGrowthBytes: number };
  seconds: number;
}

export const MB = 1024 * 1024;

export function describeLoad(report: LoadReport): string[] {
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const { sessions: s, requests: r, cap: c, memory: m } = report;
  return [
    `sessions: ${s.churned} opened, used and closed or abandoned, ${s.storm} searching in the storm; ${s.closed} closed with DELETE, ${s.abandoned} abandoned without DELETE (${s.hung} of them hung on an unread SSE stream); ${s.expired} expired by the servers (cap phase included); peak ${s.peak} open at once`,
    `requests: ${r.total} HTTP requests answered (${Object.entries(r.byStatus)
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ')}); ${r.searches} SearchDocs calls, ${r.searchFailures} failed; ${r.serverErrors} server errors`,
    `cap: ${c.held} sessions held at a cap of ${c.maxSessions}; ${c.refusedAtCap}/${c.attemptedOver} initializes beyond it answered 503 + Retry-After, ${c.unexpected.length} otherwise; ${c.searchesAtCap} searches at the cap; ${c.reopenedAfterDelete} sessions reopened after DELETE, ${c.reopenedAfterExpiry} after expiry`,
    `memory: heap ${mb(m.before.heapUsedBytes)} before, ${mb(m.after.heapUsedBytes)} after (${m.heapGrowthBytes >= 0 ? '+' : ''}${mb(m.heapGrowthBytes)}); rss ${mb(m.before.rssBytes)} before, ${mb(m.after.rssBytes)} after`,
    `failures: ${report.failures.length}${report.failures.length > 0 ? `\n  ${report.failures.slice(0, 20).join('\n  ')}` : ''}`,
    `time: ${report.seconds.toFixed(1)} s`,
  ];
}
