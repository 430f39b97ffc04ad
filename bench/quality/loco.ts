import { mean } from '../lib/metrics.js';

/**
 * Leave-one-corpus-out choice of fitted numbers. For each labelled corpus C, the fit (label bands,
 * a point of a small grid of render settings) is computed from the OTHER corpora's tuning halves
 * alone, and C is judged with it: the figures reported for C then say how the settings hold on a
 * corpus they were not chosen on, as they must on the user's own docs nobody labelled.
 *
 * `leaveOneCorpusOut` is the only place that decides what a fit sees: it hands `fitOn` every corpus
 * but the left-out one, so no query of C (tuning or held-out) can reach C's choice. Pure.
 */

export interface CorpusTuning<T> {
  name: string;
  /** The corpus's tuning half, in whatever form the fit reads (never its held-out half). */
  tuning: T;
}

export class LeaveOneOutError extends Error {
  readonly code = 'LOCO_TOO_FEW_CORPORA';
}

/** For each corpus, `fitOn` the others: what that corpus is judged with. */
export function leaveOneCorpusOut<T, F>(
  corpora: readonly CorpusTuning<T>[],
  fitOn: (others: readonly CorpusTuning<T>[]) => F,
): Map<string, F> {
  if (corpora.length < 2)
    throw new LeaveOneOutError(`leave-one-corpus-out needs two corpora or more, got ${corpora.length}`);
  const names = new Set(corpora.map((c) => c.name));
  if (names.size !== corpora.length) throw new LeaveOneOutError('leave-one-corpus-out needs distinct corpus names');
  return new Map(corpora.map((c) => [c.name, fitOn(corpora.filter((o) => o.name !== c.name))]));
}

/** One response judged for the objective: an answerable question, or one the docs do not cover. */
export interface AnswerableOutcome {
  /** The answer is in one of the first five results as rendered within the budget. */
  hit5: number;
  /** The response was the short not-covered answer. */
  notCovered: boolean;
}
export interface OffTopicOutcome {
  chars: number;
  starred: boolean;
}
export interface Evaluation {
  answerable: readonly AnswerableOutcome[];
  offTopic: readonly OffTopicOutcome[];
}

/**
 * What a grid point is worth on one corpus, judged at the answer: Hit@5 within the response budget,
 * less a penalty for each answerable question told "not covered" (on top of the answer it lost:
 * the issue allows 1 in 100), for off-topic responses' size (mean characters as a share of the
 * budget) and for a starred off-topic result.
 */
export const OBJECTIVE_WEIGHTS = { falseNotCovered: 1, offTopicSize: 0.25, offTopicStarred: 0.25 } as const;

export function objective(e: Evaluation, budgetChars: number): number {
  const w = OBJECTIVE_WEIGHTS;
  return (
    mean(e.answerable.map((a) => a.hit5)) -
    w.falseNotCovered * mean(e.answerable.map((a) => (a.notCovered ? 1 : 0))) -
    w.offTopicSize * mean(e.offTopic.map((o) => Math.min(1, o.chars / budgetChars))) -
    w.offTopicStarred * mean(e.offTopic.map((o) => (o.starred ? 1 : 0)))
  );
}

export interface GridChoice {
  /** Index of the chosen point in the grid. */
  point: number;
  /** Its objective, averaged over the corpora it was chosen on (each corpus counts once). */
  score: number;
  /** The corpora it was chosen on. */
  chosenOn: string[];
}

/** Scores differing by less than this are a tie; a tie goes to the earlier point (the grid lists the shipped one first). */
const TIE = 1e-9;

/**
 * The grid point with the best mean objective over `corpora`. `score(corpus, point)` evaluates one
 * point on one corpus's tuning half.
 */
export function bestPoint<T>(
  corpora: readonly CorpusTuning<T>[],
  points: number,
  score: (corpus: CorpusTuning<T>, point: number) => number,
): GridChoice {
  let best: GridChoice | undefined;
  for (let p = 0; p < points; p++) {
    const s = mean(corpora.map((c) => score(c, p)));
    if (best === undefined || s > best.score + TIE) best = { point: p, score: s, chosenOn: [] };
  }
  if (best === undefined) throw new LeaveOneOutError('the grid has no point');
  return { ...best, chosenOn: corpora.map((c) => c.name) };
}

/**
 * Memoises `evaluate` per corpus and point, so each corpus's tuning half is rendered once per point
 * however many left-out choices read it.
 */
export function memoPerCorpus<T, V>(
  evaluate: (corpus: CorpusTuning<T>, point: number) => V,
): (corpus: CorpusTuning<T>, point: number) => V {
  const memo = new Map<string, V>();
  return (corpus, point) => {
    const key = `${corpus.name}\u0000${point}`;
    if (!memo.has(key)) memo.set(key, evaluate(corpus, point));
    return memo.get(key)!;
  };
}
