import { tokenize } from '../index/tokenize.js';
import { DEFAULT_PASSAGES, type PassageOptions } from './passage-options.js';

/**
 * Whether the docs cover a query at all. The evidence is the first result's confidence less a
 * share of the query the corpus lacks entirely: the IDF share of the query's own words found in
 * no section, in any spelling. Questions about other products ("terraform state locking" asked of
 * a gift-card platform's docs) carry their topic in words the corpus has never seen; paraphrases
 * of covered topics lack ordinary words at most, and a compound of words it has is no unseen word
 * (`foundOwnTerms`). Fitted on the tuning halves' on-topic questions
 * and off-topic lists (bench/results/tuning.md): a query is covered when
 * `confidence − ABSENT_PENALTY × absentShare ≥ COVERED_MIN`.
 *
 * The engine folds the penalty into every result's confidence, so labels follow it and a query
 * the docs do not cover has no result above COVERED_MIN: `covered` reads it back off the results.
 */

export const ABSENT_PENALTY = 2 / 3;
export const COVERED_MIN = DEFAULT_PASSAGES.coveredMin;

/**
 * Confidences scaled so the first is its evidence (`confidence − ABSENT_PENALTY × absentShare`,
 * at least 0) and the others keep their ratio to it. Unchanged when the corpus has every word.
 */
export function discounted(confidences: readonly number[], absentShare: number): number[] {
  const top = Math.max(0, ...confidences);
  if (absentShare <= 0 || top <= 0) return [...confidences];
  const factor = Math.max(0, top - ABSENT_PENALTY * absentShare) / top;
  return confidences.map((c) => c * factor);
}

/**
 * Which of the query's own terms (bit i for `ownTerms[i]`) count as words the docs have: those the
 * index holds (`found`), and every form of a compound of the query whose parts it holds. A compound
 * is words joined by hyphens, dots, slashes, colons or underscores, or a number run into a unit:
 * "half-written", "site-wide" and "brand-new" are written in no page, nor are "site/index.html",
 * "window.confirm" or "3pm", but their parts are words of the docs. Paraphrases and symptoms lost up
 * to a third of their confidence to such compounds and were told "not covered"
 * (bench/results/tuning.md). A part the index lacks keeps the compound absent ("wasm-bindgen" asked
 * of a book that never says "bindgen", "tailwind.config.js" of docs that never name Tailwind), and
 * so does a part that is no term of the query: filler ("one-to-many" in a question) counts for
 * nothing. A number and its unit ("3" and "pm" of "3pm") are no terms of the query: `hasTerm` looks
 * them up in the index.
 */
export function foundOwnTerms(
  text: string,
  ownTerms: readonly string[],
  found: number,
  hasTerm: (term: string) => boolean = () => false,
): number {
  const bitOf = new Map(ownTerms.map((t, i) => [t, 1 << i]));
  const has = (term: string) => ((bitOf.get(term) ?? 0) & found) !== 0;
  let bits = found;
  for (const word of text.split(/\s+/)) {
    const compound = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    const joined = JOINED.test(compound);
    if (!joined && !NUMBER_AND_UNIT.test(compound)) continue;
    const parts = joined
      ? compound.split(/[.\-/:@_]+/).flatMap((part) => tokenize(part))
      : (compound.match(/\p{L}+|\p{N}+/gu) ?? []).flatMap((part) => tokenize(part));
    if (parts.length === 0 || !parts.every(joined ? has : hasTerm)) continue;
    for (const form of tokenize(compound)) bits |= bitOf.get(form) ?? 0;
  }
  return bits;
}

/** Words or numbers joined by identifier punctuation: "site-wide", "site/index.html", "10.0.0.5". */
const JOINED = /^[\p{L}\p{N}]+(?:[.\-/:@_]+[\p{L}\p{N}]+)+$/u;
/** A number and a unit, either way round ("3pm", "5000ms", "v11"); not a numeronym ("i18n", "k8s"). */
const NUMBER_AND_UNIT = /^(?:\p{N}+\p{L}+|\p{L}+\p{N}+)$/u;

/**
 * Whether results answer a query the docs cover (see above): some result is at least `coveredMin`
 * sure, or the query names one of their pages' titles or headings (every term of a title or
 * heading of `namedHeadingTerms` terms or more is in the query: "document outgoing webhooks in
 * openapi" names a page titled "OpenAPI Webhooks", however its words are spread).
 */
export function covered(
  results: readonly CoverageResult[],
  options: Pick<PassageOptions, 'coveredMin' | 'namedHeadingTerms'> = DEFAULT_PASSAGES,
  term = '',
): boolean {
  return (
    results.some((r) => r.confidence >= options.coveredMin) || namesHeading(term, results, options.namedHeadingTerms)
  );
}

/** What coverage reads of a result: its confidence, title and its sections' heading paths. */
export interface CoverageResult {
  confidence: number;
  title?: string;
  sections?: readonly { headings: readonly string[] }[];
}

function namesHeading(term: string, results: readonly CoverageResult[], minTerms: number): boolean {
  const query = new Set(tokenize(term));
  if (query.size === 0) return false;
  // Word by word: "OpenAPI" is one word of the title, whichever of its forms (openapi, open, api) the query has.
  const names = (heading: string) => {
    const words = heading
      .split(/\s+/)
      .map(tokenize)
      .filter((forms) => forms.length > 0);
    return words.length >= minTerms && words.every((forms) => forms.some((t) => query.has(t)));
  };
  return results.some((r) => names(r.title ?? '') || (r.sections ?? []).some((s) => s.headings.some((h) => names(h))));
}
