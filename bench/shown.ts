import type { LabelledQuery } from './queries.js';

/**
 * "The answer is shown": the definition every Hit@k of the answer benchmark uses, as pure
 * functions. A result shows the answer when its page is judged relevant (grade ≥ 1) and, where
 * the set labels headings for that page, at least one section shown in its window is one of those
 * headings or lies under one (the section's heading path includes a labelled heading). A
 * relevant page whose answering section was cut away does not count.
 */

/** One result as it reaches the reader: its document key (`kb/path`) and the sections shown. */
export interface ShownResult {
  doc: string;
  sections: readonly { headings: readonly string[] }[];
}

export function showsAnswer(query: LabelledQuery, result: ShownResult): boolean {
  const judged = query.relevant.find((r) => r.doc === result.doc);
  if (judged === undefined || judged.grade < 1) return false;
  const wanted = judged.headings;
  if (wanted === undefined || wanted.length === 0) return true;
  return result.sections.some((s) => s.headings.some((h) => wanted.includes(h)));
}

/** 1-based rank of the first result that shows the answer, or 0 when none does. */
export function firstAnswerRank(query: LabelledQuery, results: readonly ShownResult[]): number {
  return results.findIndex((r) => showsAnswer(query, r)) + 1;
}

export function answerAt(query: LabelledQuery, results: readonly ShownResult[], k: number): number {
  const rank = firstAnswerRank(query, results);
  return rank > 0 && rank <= k ? 1 : 0;
}
