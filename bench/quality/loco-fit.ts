import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { DEFAULT_PASSAGES } from '../../src/search/passage-options.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../../src/search/relevance.js';
import type { SearchResult } from '../../src/search/types.js';
import { type AnswerReport, evaluateAnswers } from './answers.js';
import { calibrate } from './calibrate.js';
import { cachedSystem, type CorpusRuns, type HalfRuns } from './loco-cache.js';
import { type Fit, fitResults, type GridAxes, type GridPoint, gridOf, relabel } from './loco-grid.js';
import {
  type AnswerableOutcome,
  bestPoint,
  type CorpusTuning,
  type GridChoice,
  leaveOneCorpusOut,
  memoPerCorpus,
  objective,
} from './loco.js';
import { evaluateOffTopic, type OffTopicReport } from './offtopic.js';
import { judgements } from '../queries.js';
import { respond, RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';
import { answerAt } from './shown.js';

/**
 * Leave-one-corpus-out fitting on the cached results (bench/quality/loco-cache.ts) and the held-out
 * figures each corpus gets with the fit chosen without it. For a left-out corpus C, on the other
 * corpora's tuning halves: the label bands are calibrated (bench/quality/calibrate.ts), then the grid point
 * with the best mean objective (bench/quality/loco.ts) is chosen, its off-topic stars read with those bands.
 */

/** One tuning half rendered at one grid point: what the objective reads. */
interface PointOutcome {
  answerable: AnswerableOutcome[];
  /** Per off-topic question: the response's size and the results it shows (their stars depend on the bands). */
  offTopic: { chars: number; shown: SearchResult[] }[];
}

/**
 * Renders a tuning half at `point`. Labels do not steer the selection, so the bands and the star
 * rule are applied afterwards, to the results shown (the label's few characters in the header are
 * not re-measured).
 */
function renderHalf(half: HalfRuns, point: GridPoint): PointOutcome {
  const answerable = half.answerable.map((q) => {
    const r = respond(q.query, q.results, RESPONSE_BUDGET_CHARS, point);
    return { hit5: answerAt(q.labelled!, r.shown, 5), notCovered: !r.covered };
  });
  const offTopic = half.offTopic.map((q) => {
    const r = respond(q.query, q.results, RESPONSE_BUDGET_CHARS, point);
    const shown = new Set(r.shown.map((s) => s.doc));
    return { chars: r.chars, shown: q.results.filter((x) => shown.has(`${x.source}/${x.path}`)) };
  });
  return { answerable, offTopic };
}

function starred(shown: readonly SearchResult[], thresholds: RelevanceThresholds, starMinMatch: number): boolean {
  return shown.some((r) => relabel(r, thresholds, starMinMatch).stars > 0);
}

/** (confidence, relevant?) of every ranked page of a tuning half; off-topic questions' pages are all irrelevant. */
function calibrationPairs(half: HalfRuns): { confidence: number; relevant: boolean }[] {
  const answerable = half.answerable.flatMap((q) => {
    const judged = judgements(q.labelled!);
    return q.ranking.map((doc, i) => ({ confidence: q.confidences[i]!, relevant: (judged.get(doc) ?? 0) > 0 }));
  });
  const off = half.offTopic.flatMap((q) => q.confidences.map((confidence) => ({ confidence, relevant: false })));
  return [...answerable, ...off];
}

export interface LeftOutFit {
  fit: Fit;
  choice: GridChoice;
}

/**
 * For each corpus, the fit chosen on the other corpora's tuning halves: the grid's points, each
 * with every value of the star rule (point-major, so choice 0 is what ships and a tie keeps the
 * earlier, shipped value).
 */
export function fitLeftOut(corpora: readonly CorpusRuns[], axes: GridAxes): Map<string, LeftOutFit> {
  const grid = gridOf(axes);
  const stars = [...new Set(axes.starMinMatch)];
  const outcome = memoPerCorpus<HalfRuns, PointOutcome>((c, p) => renderHalf(c.tuning, grid[p]!));
  const tunings = corpora.map((c) => ({ name: c.name, tuning: c.tuning }));
  return leaveOneCorpusOut(tunings, (others: readonly CorpusTuning<HalfRuns>[]) => {
    const thresholds = calibrate(others.flatMap((o) => calibrationPairs(o.tuning)));
    const score = (c: CorpusTuning<HalfRuns>, choice: number) => {
      const o = outcome(c, Math.floor(choice / stars.length));
      const star = stars[choice % stars.length]!;
      const offTopic = o.offTopic.map((x) => ({ chars: x.chars, starred: starred(x.shown, thresholds, star) }));
      return objective({ answerable: o.answerable, offTopic }, RESPONSE_BUDGET_CHARS);
    };
    const choice = bestPoint(others, grid.length * stars.length, score);
    const point = grid[Math.floor(choice.point / stars.length)]!;
    return { fit: { thresholds, starMinMatch: stars[choice.point % stars.length]!, point }, choice };
  });
}

/** What ships today: the engine's own bands and star rule, and the shipped numbers. */
export const SHIPPED_FIT: Fit = {
  thresholds: DEFAULT_RELEVANCE_THRESHOLDS,
  starMinMatch: DEFAULT_PASSAGES.starMinMatch,
  point: {},
};

export interface HeldOutFigures {
  answers: AnswerReport;
  offTopic: OffTopicReport;
}

/** A corpus's held-out half answered with `fit`, from the cached results. */
export async function heldOutWith(runs: CorpusRuns, fit: Fit, name: string): Promise<HeldOutFigures> {
  const { answerable, offTopic } = runs.heldOut;
  const system = cachedSystem(name, [...answerable, ...offTopic], (results) => fitResults(results, fit));
  const answers = await evaluateAnswers(
    answerable.map((q) => q.labelled!),
    system,
    { budgetChars: RESPONSE_BUDGET_CHARS, resultCount: RESULT_COUNT, passages: fit.point },
  );
  const off = await evaluateOffTopic(
    { offTopic: offTopic.map((q) => ({ id: q.id, query: q.query })) },
    system,
    fit.point,
  );
  return { answers, offTopic: off };
}
