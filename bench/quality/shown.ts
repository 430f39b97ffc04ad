import { showsPhrase } from '../queries/answer-text.js';
import type { LabelledQuery } from '../queries.js';

/**
 * "The answer is shown": the definition every Hit@k of the answer benchmark uses, as pure
 * functions. A result shows the answer when its page is judged relevant and one of the answer
 * phrases labelled for that page (bench/queries/README.md) occurs in the text the response gives
 * for that result: the sections it shows, not its header, not the outline of what was left out.
 * A relevant page whose answering words were cut away does not count; nor does a page labelled
 * relevant without answer phrases (it points to the answer but does not state it).
 */

/** One result as it reaches the reader: its document key (`kb/path`) and the section text shown. */
export interface ShownResult {
  doc: string;
  text: string;
}

export function showsAnswer(query: LabelledQuery, result: ShownResult): boolean {
  const judged = query.relevant.find((r) => r.doc === result.doc);
  if (judged === undefined || judged.grade < 1 || judged.answers === undefined) return false;
  return showsPhrase(result.text, judged.answers);
}

/** 1-based rank of the first result that shows the answer, or 0 when none does. */
export function firstAnswerRank(query: LabelledQuery, results: readonly ShownResult[]): number {
  return results.findIndex((r) => showsAnswer(query, r)) + 1;
}

export function answerAt(query: LabelledQuery, results: readonly ShownResult[], k: number): number {
  const rank = firstAnswerRank(query, results);
  return rank > 0 && rank <= k ? 1 : 0;
}
