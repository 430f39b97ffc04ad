import type { Embedder } from '../src/embedding/types.js';
import { openEngine } from '../src/search/engine.js';
import type { EngineOptions } from '../src/search/searcher-types.js';
import type { SearchResult } from '../src/search/types.js';
import { Bm25Floor } from './bm25-floor.js';
import { mean, ndcg, percentile } from './metrics.js';
import { judgements, QUERY_STYLES, type LabelledQuery } from './queries.js';
import { respond, RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';
import { answerAt, firstAnswerRank } from './shown.js';

/**
 * Search quality as the assistant receives it: each query is answered as the server answers it
 * (default result count, rendered within the default budget) and scored on whether the answer
 * is shown (bench/shown.ts). nDCG@10 is the usual graded page ranking over the first ten pages.
 */

export interface AnswerSystem {
  name: string;
  search(query: string, limit: number): Promise<SearchResult[]>;
  close(): Promise<void>;
}

export interface QueryOutcome {
  id: string;
  style: string;
  /** Answer shown in the first result / the first five, within the budget. */
  hit1: number;
  hit5: number;
  /** Answer within the first five results' full windows, no budget. */
  hit5Unbudgeted: number;
  /** 1 / rank of the first result showing the answer within the budget, 0 if none does. */
  rr: number;
  ndcg10: number;
  chars: number;
}

export interface AnswerScores {
  queries: number;
  hit1: number;
  hit5: number;
  hit5Unbudgeted: number;
  mrr: number;
  ndcg10: number;
  medianChars: number;
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
}

const DEFAULTS: AnswerSettings = { budgetChars: RESPONSE_BUDGET_CHARS, resultCount: RESULT_COUNT };

export async function answerOutcome(
  query: LabelledQuery,
  system: AnswerSystem,
  settings: AnswerSettings = DEFAULTS,
): Promise<QueryOutcome> {
  const results = await system.search(query.query, settings.resultCount);
  const response = respond(query.query, results, settings.budgetChars);
  const ranking = settings.resultCount >= 10 ? results : await system.search(query.query, 10);
  const rank = firstAnswerRank(query, response.shown);
  return {
    id: query.id,
    style: query.style,
    hit1: answerAt(query, response.shown, 1),
    hit5: answerAt(query, response.shown, 5),
    hit5Unbudgeted: answerAt(query, response.unbudgeted, 5),
    rr: rank === 0 ? 0 : 1 / rank,
    ndcg10: ndcg(
      ranking.map((r) => `${r.source}/${r.path}`),
      judgements(query),
      10,
    ),
    chars: response.chars,
  };
}

export function summarise(outcomes: readonly QueryOutcome[]): AnswerScores {
  const avg = (k: 'hit1' | 'hit5' | 'hit5Unbudgeted' | 'rr' | 'ndcg10') => mean(outcomes.map((o) => o[k]));
  return {
    queries: outcomes.length,
    hit1: avg('hit1'),
    hit5: avg('hit5'),
    hit5Unbudgeted: avg('hit5Unbudgeted'),
    mrr: avg('rr'),
    ndcg10: avg('ndcg10'),
    medianChars: percentile(
      outcomes.map((o) => o.chars),
      50,
    ),
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
  options: EngineOptions = {},
): Promise<AnswerSystem> {
  const engine = await openEngine(indexDir, { embedder, ...options });
  return { name, search: (query, limit) => engine.search(query, { limit }), close: () => engine.close() };
}

export const BM25_FLOOR_NAME = 'plain BM25, ±15 sections';

export async function bm25FloorSystem(indexDir: string): Promise<AnswerSystem> {
  const floor = await Bm25Floor.open(indexDir);
  return { name: BM25_FLOOR_NAME, search: async (query, limit) => floor.search(query, limit), close: async () => {} };
}
