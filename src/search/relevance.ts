import type { RelevanceThresholds } from '../index/manifest.js';
import { DEFAULT_PASSAGES } from './passage-options.js';
import { RELEVANCE_LABELS, type Relevance } from './types.js';

/**
 * Relevance labels. A label is a fixed band of the match's confidence (see `confidence` in
 * engine.ts), with thresholds stored in the index manifest, so that a label means the same
 * thing on every query; the benchmark measures how often each label is truly relevant.
 */

/**
 * Where the probability that a result is relevant reaches 80 %, 60 %, 40 % and 20 %, by isotonic
 * regression on the tuning halves of every labelled set, their off-topic questions included (all
 * of whose results count as irrelevant): `npx tsx bench/quality/calibrate.ts` gave 0.960, 0.772, 0.463,
 * 0.248 (bench/results/tuning.md); the benchmark reports each label's precision on the held-out
 * halves. "Excellent" needs a result that matches (nearly) every term of the query and scores
 * (nearly) as high as the first.
 */
export const DEFAULT_RELEVANCE_THRESHOLDS: RelevanceThresholds = {
  excellent: 0.96,
  veryRelevant: 0.77,
  relevant: 0.46,
  moderate: 0.25,
};

const STARS = [3, 2, 1, 0, 0] as const;

/**
 * A star says the result answers the question: its best section must hold more than
 * `starMinMatch` of the query's informative weight (its `match`; a field of DEFAULT_PASSAGES, so
 * the leave-one-corpus-out fit tries its values and the engine reads the one that ships).
 * Questions the docs do not cover reached "★ Relevant" on a page holding their ordinary half
 * ("create a Hugo shortcode that takes named parameters" on a page about site configuration's
 * parameters; best match 0.47-0.50 on every such case of the tuning halves), and the starred
 * results of answered questions at or under half were relevant 4 times in 10 counted with those,
 * the rate "Relevant" starts at (bench/results/tuning.md). 0.6 is what the fit chose for every
 * corpus, each time on the other corpora's tuning halves (bench/results/quality.md).
 *
 * The label for `confidence`: at most "Moderate match" when the best section's `bestMatch` is
 * `starMinMatch` or less.
 */
export function relevanceFor(
  confidence: number,
  t: RelevanceThresholds,
  bestMatch = 1,
  starMinMatch: number = DEFAULT_PASSAGES.starMinMatch,
): Relevance {
  const band =
    confidence >= t.excellent
      ? 0
      : confidence >= t.veryRelevant
        ? 1
        : confidence >= t.relevant
          ? 2
          : confidence >= t.moderate
            ? 3
            : 4;
  if (band < 3 && bestMatch <= starMinMatch) return { label: RELEVANCE_LABELS[3]!, stars: 0 };
  return { label: RELEVANCE_LABELS[band]!, stars: STARS[band]! };
}
