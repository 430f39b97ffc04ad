import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { DEFAULT_SELECT, type SelectOptions } from '../../src/mcp/render/select.js';
import { COVERED_MIN } from '../../src/search/coverage.js';
import { relevanceFor } from '../../src/search/relevance.js';
import type { SearchResult } from '../../src/search/types.js';
import type { RenderFit } from './response.js';

/**
 * The fitted numbers leave-one-corpus-out tuning chooses (bench/quality/loco.ts), and how a choice is
 * applied to the engine's results without searching again: every grid point re-renders the same
 * ranked results.
 *
 * - Label bands: calibrated on the other corpora's tuning halves (bench/quality/calibrate.ts) and applied
 *   by relabelling each result from its confidence and its best section's match, as the engine does.
 * - The not-covered cut: the renderer compares confidences with COVERED_MIN. A cut `c` is applied
 *   by scaling every confidence by COVERED_MIN / c, and the selection's confidence floor with it,
 *   so both compare as they would against `c`; labels are read from the unscaled confidence.
 * - The selection's numbers (DEFAULT_SELECT): passed to the renderer as options.
 */

type SelectFit = Partial<Omit<SelectOptions, 'budgetChars'>>;

export interface GridPoint {
  coveredMin: number;
  select: SelectFit;
}

export interface Fit {
  thresholds: RelevanceThresholds;
  point: GridPoint;
}

/** Values of each axis, the shipped value first, so point 0 of the grid is what ships. */
export interface GridAxes {
  coveredMin: readonly number[];
  select: { [K in keyof SelectFit]?: readonly NonNullable<SelectFit[K]>[] };
}

export const SHIPPED_AXES: GridAxes = {
  coveredMin: [COVERED_MIN],
  select: {},
};

/**
 * `npm run bench`: the cut, the confidence floor and the section clips, 4 × 2 × 3 × 2 = 48 points
 * (about 0.1 s per point and corpus on 2 idle cores; each point re-renders every tuning query once).
 */
export const FULL_AXES: GridAxes = {
  coveredMin: [COVERED_MIN, 0.16, 0.2, 0.28],
  select: {
    minConfidence: [DEFAULT_SELECT.minConfidence, 0.08],
    bestSectionChars: [DEFAULT_SELECT.bestSectionChars, 3_000, 7_000],
    sectionChars: [DEFAULT_SELECT.sectionChars, 2_000],
  },
};

/** `npm run bench -- --quick` (CI): two points, enough to exercise the left-out choice. */
export const QUICK_AXES: GridAxes = { coveredMin: [COVERED_MIN, 0.2], select: {} };

/** Every combination of the axes' values; point 0 takes every axis's first (shipped) value. */
export function gridOf(axes: GridAxes): GridPoint[] {
  let points: GridPoint[] = axes.coveredMin.map((coveredMin) => ({ coveredMin, select: {} }));
  for (const [key, values] of Object.entries(axes.select) as [keyof SelectFit, readonly number[]][]) {
    points = points.flatMap((p) => values.map((v) => ({ ...p, select: { ...p.select, [key]: v } })));
  }
  return points;
}

/** One line naming a point's values that differ from the shipped ones. */
export function describePoint(p: GridPoint): string {
  const parts = p.coveredMin === COVERED_MIN ? [] : [`not-covered cut ${p.coveredMin}`];
  for (const [key, value] of Object.entries(p.select))
    if (DEFAULT_SELECT[key as keyof SelectFit] !== value) parts.push(`${key} ${value}`);
  return parts.length === 0 ? 'shipped' : parts.join(', ');
}

/** The results as a server fitted with `fit` hands them to the renderer (see above). */
export function fitResults(results: readonly SearchResult[], fit: Fit): SearchResult[] {
  const scale = COVERED_MIN / fit.point.coveredMin;
  return results.map((r) => ({
    ...r,
    relevance: relevanceFor(r.confidence, fit.thresholds, bestMatchOf(r)),
    confidence: r.confidence * scale,
  }));
}

/** The renderer's options at `point`, its confidence floor scaled with the confidences (see above). */
export function fitRender(point: GridPoint): RenderFit {
  const minConfidence = point.select.minConfidence ?? DEFAULT_SELECT.minConfidence;
  return { ...point.select, minConfidence: (minConfidence * COVERED_MIN) / point.coveredMin };
}

/** How much of the query the result's best section matches: what the star rule reads. */
export function bestMatchOf(r: SearchResult): number {
  return r.sections.find((s) => s.isBest)?.match ?? 0;
}
