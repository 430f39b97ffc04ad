import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { DEFAULT_PASSAGES, type PassageOptions, passageOptions } from '../../src/search/passage-options.js';
import { relevanceFor } from '../../src/search/relevance.js';
import type { SearchResult } from '../../src/search/types.js';

/**
 * The fitted numbers leave-one-corpus-out tuning chooses (bench/quality/loco.ts), and how a choice
 * is applied to the engine's results without searching again: every grid point re-renders the same
 * ranked results.
 *
 * - The response's numbers (src/search/passage-options.ts: the selection's, the not-covered cut):
 *   passed to the renderer as options, one grid point each.
 * - Label bands: calibrated on the other corpora's tuning halves (bench/quality/calibrate.ts).
 * - The star rule's least match (`starMinMatch`): labels do not steer what a response shows, so
 *   its values are tried on each point's rendering without rendering again.
 * Bands and star rule are applied by relabelling each result from its confidence and its best
 * section's match, as the engine does (src/search/relevance.ts).
 */

type Numbers = Omit<PassageOptions, 'starMinMatch'>;
export type GridPoint = Partial<Numbers>;

export interface Fit {
  thresholds: RelevanceThresholds;
  starMinMatch: number;
  point: GridPoint;
}

/** Values of each axis, the shipped value first, so point 0 of the grid is what ships. */
export interface GridAxes {
  passages: { [K in keyof Numbers]?: readonly Numbers[K][] };
  starMinMatch: readonly number[];
}

const D = DEFAULT_PASSAGES;

/**
 * `npm run bench`: the not-covered cut (0.20 ships: every corpus's left-out fit chose it over 0.22
 * and 0.26, docs/how-search-works.md), and the passage room (how much lower results' passages
 * count, how many of the first result's passages are held for it), 3 × 2 × 2 = 12 renderings of
 * every tuning query, and the star rule two ways on each. Passage selection renders slower than
 * the window fitter did: 48 renderings took over 10 minutes on 2 loaded cores.
 */
export const FULL_AXES: GridAxes = {
  passages: {
    coveredMin: [D.coveredMin, 0.22, 0.26],
    rankDecay: [D.rankDecay, 0.5],
    firstBlocks: [D.firstBlocks, 2],
  },
  starMinMatch: [D.starMinMatch, 0.5],
};

/** `npm run bench -- --quick` (CI): two points, enough to exercise the left-out choice. */
export const QUICK_AXES: GridAxes = { passages: { coveredMin: [D.coveredMin, 0.24] }, starMinMatch: [D.starMinMatch] };

/**
 * Every combination of the axes' values; point 0 takes every axis's first (shipped) value. A value
 * repeated on an axis counts once (an alternative can become the default when it ships).
 */
export function gridOf(axes: GridAxes): GridPoint[] {
  let points: GridPoint[] = [{}];
  for (const [key, values] of Object.entries(axes.passages) as [keyof Numbers, readonly number[]][])
    points = points.flatMap((p) => [...new Set(values)].map((v) => ({ ...p, [key]: v })));
  // A typo in an axis is an error here, not a silently ignored option.
  for (const p of points) passageOptions(p);
  return points;
}

/** One line naming a fit's values that differ from the shipped ones. */
export function describeFit(fit: Pick<Fit, 'point' | 'starMinMatch'>): string {
  const all: Partial<PassageOptions> = { ...fit.point, starMinMatch: fit.starMinMatch };
  const parts = Object.entries(all)
    .filter(([key, value]) => D[key as keyof PassageOptions] !== value)
    .map(([key, value]) => `${key} ${value}`);
  return parts.length === 0 ? 'shipped' : parts.join(', ');
}

/** How much of the query the result's best section matches: what the star rule reads. */
export function bestMatchOf(r: SearchResult): number {
  return r.sections.find((s) => s.isBest)?.match ?? 0;
}

/** The result's label under `thresholds` and the star rule at `starMinMatch`, as the engine labels it. */
export function relabel(
  r: SearchResult,
  thresholds: RelevanceThresholds,
  starMinMatch: number,
): SearchResult['relevance'] {
  return relevanceFor(r.confidence, thresholds, bestMatchOf(r), starMinMatch);
}

/** The results as a server fitted with `fit` hands them to the renderer. */
export function fitResults(results: readonly SearchResult[], fit: Fit): SearchResult[] {
  return results.map((r) => ({ ...r, relevance: relabel(r, fit.thresholds, fit.starMinMatch) }));
}
