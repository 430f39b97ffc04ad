import type { RelevanceThresholds } from '../index/manifest.js';
import { RELEVANCE_LABELS, type Relevance } from './types.js';

/**
 * Relevance labels. A label is a fixed band of the match's confidence (see `confidence` in
 * engine.ts), with thresholds stored in the index manifest, so that a label means the same
 * thing on every query; the benchmark measures how often each label is truly relevant.
 */

/**
 * Where the probability that a result is relevant reaches 80 %, 60 %, 40 % and 20 %, by isotonic
 * regression on the labelled query sets (`npx tsx bench/calibrate.ts`; the benchmark reports each
 * label's measured precision).
 */
export const DEFAULT_RELEVANCE_THRESHOLDS: RelevanceThresholds = {
  excellent: 0.95,
  veryRelevant: 0.65,
  relevant: 0.45,
  somewhatRelevant: 0.28,
};

const STARS = [3, 2, 1, 0, 0] as const;

export function relevanceFor(confidence: number, t: RelevanceThresholds): Relevance {
  const band = confidence >= t.excellent ? 0 : confidence >= t.veryRelevant ? 1 : confidence >= t.relevant ? 2 : confidence >= t.somewhatRelevant ? 3 : 4;
  return { label: RELEVANCE_LABELS[band]!, stars: STARS[band]! };
}

export function starsText(stars: number): string {
  return '★'.repeat(stars);
}
