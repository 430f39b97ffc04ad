import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { DEFAULT_RELEVANCE_THRESHOLDS, relevanceFor } from '../../src/search/relevance.js';
import type { SearchResult } from '../../src/search/types.js';
import { type AnswerReport, evaluateAnswers } from './answers.js';
import { calibrate } from './calibrate.js';
import { cachedSystem, type CorpusRuns, type HalfRuns } from './loco-cache.js';
import { bestMatchOf, type Fit, fitRender, fitResults, type GridPoint } from './loco-grid.js';
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
 * Renders a tuning half at `point`. Labels do not steer the selection, so the bands are applied
 * afterwards, to the results shown (the label's few characters in the header are not re-measured).
 */
function renderHalf(half: HalfRuns, point: GridPoint): PointOutcome {
  const fit: Fit = { thresholds: DEFAULT_RELEVANCE_THRESHOLDS, point };
  const render = fitRender(point);
  const answerable = half.answerable.map((q) => {
    const r = respond(q.query, fitResults(q.results, fit), RESPONSE_BUDGET_CHARS, render);
    return { hit5: answerAt(q.labelled!, r.shown, 5), notCovered: !r.covered };
  });
  const offTopic = half.offTopic.map((q) => {
    const r = respond(q.query, fitResults(q.results, fit), RESPONSE_BUDGET_CHARS, render);
    const shown = new Set(r.shown.map((s) => s.doc));
    return { chars: r.chars, shown: q.results.filter((x) => shown.has(`${x.source}/${x.path}`)) };
  });
  return { answerable, offTopic };
}

function starred(shown: readonly SearchResult[], thresholds: RelevanceThresholds): boolean {
  return shown.some((r) => relevanceFor(r.confidence, thresholds, bestMatchOf(r)).stars > 0);
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

/** For each corpus, the fit chosen on the other corpora's tuning halves. */
export function fitLeftOut(corpora: readonly CorpusRuns[], grid: readonly GridPoint[]): Map<string, LeftOutFit> {
  const outcome = memoPerCorpus<HalfRuns, PointOutcome>((c, p) => renderHalf(c.tuning, grid[p]!));
  const tunings = corpora.map((c) => ({ name: c.name, tuning: c.tuning }));
  return leaveOneCorpusOut(tunings, (others: readonly CorpusTuning<HalfRuns>[]) => {
    const thresholds = calibrate(others.flatMap((o) => calibrationPairs(o.tuning)));
    const score = (c: CorpusTuning<HalfRuns>, p: number) => {
      const o = outcome(c, p);
      const offTopic = o.offTopic.map((x) => ({ chars: x.chars, starred: starred(x.shown, thresholds) }));
      return objective({ answerable: o.answerable, offTopic }, RESPONSE_BUDGET_CHARS);
    };
    const choice = bestPoint(others, grid.length, score);
    return { fit: { thresholds, point: grid[choice.point]! }, choice };
  });
}

/** What ships today: the engine's own bands and point 0 of the grid. */
export function shippedFit(grid: readonly GridPoint[]): Fit {
  return { thresholds: DEFAULT_RELEVANCE_THRESHOLDS, point: grid[0]! };
}

export interface HeldOutFigures {
  answers: AnswerReport;
  offTopic: OffTopicReport;
}

/** A corpus's held-out half answered with `fit`, from the cached results. */
export async function heldOutWith(runs: CorpusRuns, fit: Fit, name: string): Promise<HeldOutFigures> {
  const { answerable, offTopic } = runs.heldOut;
  const render = fitRender(fit.point);
  const system = cachedSystem(name, [...answerable, ...offTopic], (results) => fitResults(results, fit));
  const answers = await evaluateAnswers(
    answerable.map((q) => q.labelled!),
    system,
    { budgetChars: RESPONSE_BUDGET_CHARS, resultCount: RESULT_COUNT, fit: render },
  );
  const off = await evaluateOffTopic({ offTopic: offTopic.map((q) => ({ id: q.id, query: q.query })) }, system, render);
  return { answers, offTopic: off };
}
