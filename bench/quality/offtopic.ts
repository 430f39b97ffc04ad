import { mean, percentile } from '../lib/metrics.js';
import type { QuerySet } from '../queries.js';
import type { PassageOptions } from '../../src/search/passage-options.js';
import { respond, RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';
import type { AnswerSystem } from './answers.js';

/**
 * Questions the docs do not cover (each set's `offTopic` list, written by checking the corpus
 * does not answer them): what the assistant is handed for them. A good response is short and says
 * so; it never labels a result with a star.
 */

export interface OffTopicOutcome {
  id: string;
  chars: number;
  /** The most stars any result of the response carries. */
  stars: number;
  results: number;
}

export interface OffTopicReport {
  system: string;
  queries: number;
  medianChars: number;
  /** Share of responses with a starred result. */
  starred: number;
  meanResults: number;
  perQuery: OffTopicOutcome[];
}

export async function evaluateOffTopic(
  set: Pick<QuerySet, 'offTopic'>,
  system: AnswerSystem,
  passages: Partial<PassageOptions> = {},
): Promise<OffTopicReport> {
  const perQuery: OffTopicOutcome[] = [];
  for (const q of set.offTopic) {
    const response = respond(q.query, await system.search(q.query, RESULT_COUNT), RESPONSE_BUDGET_CHARS, passages);
    perQuery.push({
      id: q.id,
      chars: response.chars,
      stars: Math.max(0, ...response.stars),
      results: response.shown.length,
    });
  }
  return {
    system: system.name,
    queries: perQuery.length,
    medianChars: percentile(
      perQuery.map((o) => o.chars),
      50,
    ),
    starred: mean(perQuery.map((o) => (o.stars > 0 ? 1 : 0))),
    meanResults: mean(perQuery.map((o) => o.results)),
    perQuery,
  };
}
