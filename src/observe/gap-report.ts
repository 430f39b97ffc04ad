import { tokenize } from '../index/tokenize.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../search/relevance.js';
import type { QueryRecord } from './query-record.js';

/**
 * The docs-gap report: from the searches recorded (query-store.ts), what the docs failed to
 * answer (grouped by their words, most asked first), the weakest answers they did give, what is
 * asked most, the pages no answer ever showed, and the slowest searches. A pure function of the
 * records and the index's page list; `svc-docs report` prints it and the search page shows it.
 */

export interface GapReportOptions {
  /** Pages of the index (`<knowledge base>/<path>`), for the pages never returned; undefined when unknown. */
  pages?: readonly string[];
  /** Entries per list at most. */
  limit: number;
  /** The window the records were read for (for the heading); undefined = all kept. */
  since?: Date;
  now: Date;
}

/** Searches that share their words (stemmed, stop words dropped, any order). */
export interface QuestionGroup {
  words: string;
  count: number;
  /** The most recent wording, and how many other wordings the group has. */
  example: string;
  otherWordings: number;
  last: string;
  /** Mean best confidence of the group's searches with results. */
  meanConfidence: number | undefined;
  notCovered: number;
}

export interface GapReport {
  since: string | undefined;
  until: string;
  searches: number;
  notCoveredSearches: number;
  clients: string[];
  notCovered: QuestionGroup[];
  weakest: { term: string; bestConfidence: number; pages: string[]; time: string }[];
  mostAsked: QuestionGroup[];
  neverReturned: { total: number; pages: string[]; of: number } | undefined;
  slowest: { term: string; ms: number; time: string; results: number }[];
}

/** The words a search is grouped by: its terms, stemmed, without stop words, sorted; else the term itself. */
export function questionWords(term: string): string {
  const words = [...new Set(tokenize(term))].sort();
  return words.length > 0 ? words.join(' ') : term.trim().toLowerCase();
}

/** A term's words, each distinct term tokenized once per report (three lists group by them). */
type WordsOf = (term: string) => string;

function wordsOnce(): WordsOf {
  const seen = new Map<string, string>();
  return (term) => {
    let words = seen.get(term);
    if (words === undefined) seen.set(term, (words = questionWords(term)));
    return words;
  };
}

function groupOf(records: readonly QueryRecord[], wordsOf: WordsOf): QuestionGroup {
  const latest = records.reduce((a, b) => (b.time >= a.time ? b : a));
  const confidences = records.flatMap((r) => (r.bestConfidence === undefined ? [] : [r.bestConfidence]));
  return {
    words: wordsOf(latest.term),
    count: records.length,
    example: latest.term,
    otherWordings: new Set(records.map((r) => r.term)).size - 1,
    last: latest.time,
    meanConfidence:
      confidences.length === 0
        ? undefined
        : Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 1000) / 1000,
    notCovered: records.filter((r) => r.notCovered).length,
  };
}

/** Groups of searches by their words, most asked first (the latest asked first among equals). */
function groups(records: readonly QueryRecord[], wordsOf: WordsOf): QuestionGroup[] {
  return [...Map.groupBy(records, (record) => wordsOf(record.term)).values()]
    .map((group) => groupOf(group, wordsOf))
    .sort((a, b) => b.count - a.count || b.last.localeCompare(a.last));
}

/**
 * An answer is weak when its best result is below "Very relevant" (the default band: an index's
 * own thresholds may differ slightly).
 */
const WEAK_BELOW = DEFAULT_RELEVANCE_THRESHOLDS.veryRelevant;

/** Answered searches with a weak best result, lowest first, one per question. */
function weakest(records: readonly QueryRecord[], limit: number, wordsOf: WordsOf): GapReport['weakest'] {
  const lowest = new Map<string, QueryRecord>();
  for (const record of records) {
    if (record.notCovered || record.bestConfidence === undefined || record.bestConfidence >= WEAK_BELOW) continue;
    const key = wordsOf(record.term);
    const kept = lowest.get(key);
    if (kept === undefined || record.bestConfidence < kept.bestConfidence!) lowest.set(key, record);
  }
  return [...lowest.values()]
    .sort((a, b) => a.bestConfidence! - b.bestConfidence!)
    .slice(0, limit)
    .map((r) => ({ term: r.term, bestConfidence: r.bestConfidence!, pages: r.pages, time: r.time }));
}

function neverReturned(records: readonly QueryRecord[], pages: readonly string[], limit: number) {
  const returned = new Set(records.flatMap((r) => r.pages));
  const never = pages.filter((page) => !returned.has(page)).sort();
  return { total: never.length, pages: never.slice(0, limit), of: pages.length };
}

export function gapReport(records: readonly QueryRecord[], options: GapReportOptions): GapReport {
  const { limit } = options;
  const uncovered = records.filter((r) => r.notCovered);
  const wordsOf = wordsOnce();
  return {
    since: options.since?.toISOString(),
    until: options.now.toISOString(),
    searches: records.length,
    notCoveredSearches: uncovered.length,
    clients: [...new Set(records.flatMap((r) => (r.client === undefined ? [] : [r.client])))].sort(),
    notCovered: groups(uncovered, wordsOf).slice(0, limit),
    weakest: weakest(records, limit, wordsOf),
    mostAsked: groups(records, wordsOf).slice(0, limit),
    neverReturned: options.pages === undefined ? undefined : neverReturned(records, options.pages, limit),
    slowest: [...records]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, limit)
      .map((r) => ({ term: r.term, ms: r.ms, time: r.time, results: r.results })),
  };
}
