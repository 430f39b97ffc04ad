import type { Embedder } from '../../src/embedding/types.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import type { PassageOptions } from '../../src/search/passage-options.js';
import type { SearchResult } from '../../src/search/types.js';
import { Bm25Floor } from './bm25-floor.js';
import { mean, ndcg, percentile } from '../lib/metrics.js';
import { judgements, QUERY_STYLES, type LabelledQuery } from '../queries.js';
import { repeatedSentences } from '../lib/repeats.js';
import { fullWindows, respond, RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';
import { answerAt, firstAnswerRank } from './shown.js';

/**
 * Search quality as the assistant receives it: each query is answered as the server answers it
 * (default result count, rendered within the default budget) and scored on whether the answer's
 * words are in the text shown (bench/quality/shown.ts); also with whole windows, along a curve of budgets,
 * and for repeated facts. nDCG@10 is the usual graded page ranking over the first ten pages.
 */

export interface AnswerSystem {
  name: string;
  search(query: string, limit: number): Promise<SearchResult[]>;
  /** The first ten pages' keys (`kb/path`) for nDCG@10, when the system has them without a second search. */
  ranking?(query: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Response budgets the answer curve is measured at (characters of text). */
export const BUDGET_CURVE = [6_000, 12_000, 20_000, 30_000] as const;

export interface QueryOutcome {
  id: string;
  style: string;
  /** Answer shown in the first result / the first five, within the default budget. */
  hit1: number;
  hit5: number;
  /** The same with every result's whole ±15-section window, no budget. */
  hit1Full: number;
  hit5Full: number;
  /** Hit@5 at each budget of BUDGET_CURVE. */
  hit5At: number[];
  /** 1 / rank of the first result showing the answer within the budget, 0 if none does. */
  rr: number;
  ndcg10: number;
  chars: number;
  /** Distinct sentences the response shows more than once (bench/lib/repeats.ts). */
  repeats: number;
  /** 0 when the response was the short "does not seem to cover" answer (every labelled query is answerable). */
  covered: number;
}

export interface AnswerScores {
  queries: number;
  hit1: number;
  hit5: number;
  hit1Full: number;
  hit5Full: number;
  hit5At: number[];
  mrr: number;
  ndcg10: number;
  medianChars: number;
  /** Mean repeated sentences per response, and the share of responses with any. */
  meanRepeats: number;
  withRepeats: number;
  /** Share of questions whose answer is in the top 5's whole windows but not in the response. */
  foundThenDropped: number;
  /** Share of these (answerable) questions that got the short not-covered answer. */
  falseNotCovered: number;
}

export interface AnswerReport {
  system: string;
  overall: AnswerScores;
  byStyle: Record<string, AnswerScores>;
  perQuery: QueryOutcome[];
}

export interface AnswerSettings {
  budgetChars: number;
  resultCount: number;
  /** The response's fitted numbers, when not the shipped ones (src/search/passage-options.ts). */
  passages?: Partial<PassageOptions>;
}

const DEFAULTS: AnswerSettings = { budgetChars: RESPONSE_BUDGET_CHARS, resultCount: RESULT_COUNT };

export async function answerOutcome(
  query: LabelledQuery,
  system: AnswerSystem,
  settings: AnswerSettings = DEFAULTS,
): Promise<QueryOutcome> {
  const results = await system.search(query.query, settings.resultCount);
  const response = respond(query.query, results, settings.budgetChars, settings.passages);
  const ranking =
    settings.resultCount >= 10
      ? results.map((r) => `${r.source}/${r.path}`)
      : ((await system.ranking?.(query.query)) ??
        (await system.search(query.query, 10)).map((r) => `${r.source}/${r.path}`));
  const rank = firstAnswerRank(query, response.shown);
  const full = fullWindows(results);
  return {
    id: query.id,
    style: query.style,
    hit1: answerAt(query, response.shown, 1),
    hit5: answerAt(query, response.shown, 5),
    hit1Full: answerAt(query, full, 1),
    hit5Full: answerAt(query, full, 5),
    hit5At: BUDGET_CURVE.map((budget) =>
      answerAt(query, respond(query.query, results, budget, settings.passages).shown, 5),
    ),
    rr: rank === 0 ? 0 : 1 / rank,
    ndcg10: ndcg(ranking, judgements(query), 10),
    chars: response.chars,
    repeats: repeatedSentences(response.sections),
    covered: response.covered ? 1 : 0,
  };
}

export function summarise(outcomes: readonly QueryOutcome[]): AnswerScores {
  const avg = (k: 'hit1' | 'hit5' | 'hit1Full' | 'hit5Full' | 'rr' | 'ndcg10' | 'repeats') =>
    mean(outcomes.map((o) => o[k]));
  return {
    queries: outcomes.length,
    hit1: avg('hit1'),
    hit5: avg('hit5'),
    hit1Full: avg('hit1Full'),
    hit5Full: avg('hit5Full'),
    hit5At: BUDGET_CURVE.map((_, i) => mean(outcomes.map((o) => o.hit5At[i]!))),
    mrr: avg('rr'),
    ndcg10: avg('ndcg10'),
    medianChars: percentile(
      outcomes.map((o) => o.chars),
      50,
    ),
    meanRepeats: avg('repeats'),
    withRepeats: mean(outcomes.map((o) => (o.repeats > 0 ? 1 : 0))),
    foundThenDropped: mean(outcomes.map((o) => (o.hit5Full === 1 && o.hit5 === 0 ? 1 : 0))),
    falseNotCovered: mean(outcomes.map((o) => 1 - o.covered)),
  };
}

export function answerReport(system: string, outcomes: QueryOutcome[]): AnswerReport {
  const byStyle: Record<string, AnswerScores> = {};
  for (const style of QUERY_STYLES) {
    const of = outcomes.filter((o) => o.style === style);
    if (of.length > 0) byStyle[style] = summarise(of);
  }
  return { system, overall: summarise(outcomes), byStyle, perQuery: outcomes };
}

export async function evaluateAnswers(
  queries: readonly LabelledQuery[],
  system: AnswerSystem,
  settings: AnswerSettings = DEFAULTS,
): Promise<AnswerReport> {
  const outcomes: QueryOutcome[] = [];
  for (const q of queries) outcomes.push(await answerOutcome(q, system, settings));
  return answerReport(system.name, outcomes);
}

export async function engineSystem(
  name: string,
  indexDir: string,
  embedder: Embedder,
  policy: SearchPolicy = {},
): Promise<AnswerSystem> {
  const engine = await openEngine(indexDir, { embedder }, policy);
  return { name, search: (query, limit) => engine.search(query, { limit }), close: () => engine.close() };
}

export const BM25_FLOOR_NAME = 'plain BM25, ±15 sections';

export async function bm25FloorSystem(indexDir: string): Promise<AnswerSystem> {
  const floor = await Bm25Floor.open(indexDir);
  return { name: BM25_FLOOR_NAME, search: async (query, limit) => floor.search(query, limit), close: async () => {} };
}
