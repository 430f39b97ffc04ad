import { tokenize } from '../../index/tokenize.js';
import type { PassageOptions } from '../../search/passage-options.js';
import type { SearchResult, WindowSection } from '../../search/types.js';
import {
  definitionsOf,
  type Passage,
  type SectionPassages,
  headingTerms,
  renewWhenFull,
  sectionPassages,
  termCounts,
} from './passage-blocks.js';
import { knownTermId, TermTally, termIdCount } from './term-ids.js';

/**
 * How much of an answer each passage of each result holds, for the query: its own words (IDF over
 * the passages of this response, so a word every page repeats counts little), its heading path,
 * its section's match as the engine measured it (every spelling and rewrite), its neighbours,
 * and evidence from the page itself: the distinctive terms of the page's best-matching section,
 * and the words the page uses to define the query's words (passage-blocks.ts). Numbers only.
 */

export interface ScoredResult {
  result: SearchResult;
  /** Its window's sections that say something, and its excerpts beyond the window, in page order. */
  sections: SectionPassages[];
  score: Map<Passage, number>;
}

/** The distinctive terms of the best section that count as evidence. */
const BEST_TERMS = 12;

/** Sections a response shows passages of: the ones that say something, and the best match. */
export function says(section: WindowSection): boolean {
  return section.isBest || section.role === 'content';
}

function candidateSections(result: SearchResult, used: Set<readonly Passage[]>): SectionPassages[] {
  const inWindow = new Set(result.sections.map((s) => s.position));
  const excerpts = result.excerpts ?? [];
  const extra = excerpts.filter((e) => !inWindow.has(e.position));
  // The page's opening, offered because the query names the page's topic, keeps that mark inside the window too.
  const opening = new Set(excerpts.filter((e) => e.opening).map((e) => e.position));
  const window = result.sections.map((s) => (opening.has(s.position) ? { ...s, opening: true } : s));
  return [...window, ...extra]
    .filter(says)
    .sort((a, b) => a.position - b.position)
    .map((s) => sectionPassages(s, used));
}

/** Each term's passage count over the response's passages (shared: responses are scored one at a time). */
const tally = new TermTally();

/** IDF of every term over the response's passages (0 for a term none of them holds), while `tally` holds them. */
function idfOf(all: readonly SectionPassages[][]): (id: number) => number {
  let n = 0;
  for (const sections of all)
    for (const { passages, df } of sections) {
      n += passages.length;
      for (let i = 0; i < df.length; i += 2) tally.add(df[i]!, df[i + 1]!);
    }
  return (id) => {
    const d = tally.get(id);
    return d === 0 ? 0 : Math.log(1 + n / d);
  };
}

/** A term's IDF and a bit for each wanted set that holds it, by term id (zeroed after each result). */
let weightOf = new Float64Array(0);
let setsOf = new Uint8Array(0);
/** The wanted sets' shares of each passage of a section, `WANTED` numbers a passage (reused: numbers, not an array each). */
let sharesOf = new Float64Array(0);

/** The evidence sets, in the order of their shares: the query's own terms, the best section's distinctive ones, the page's definitions. */
const [OWN, BEST_TERMS_SET, DEFINITION] = [0, 1, 2];
const WANTED = 3;

/**
 * Fills the tables for `wanted` (at most `WANTED` sets) and returns each set's total IDF weight;
 * `clearWanted` zeroes them again.
 */
function fillWanted(wanted: readonly ReadonlySet<number>[], idf: (id: number) => number): Float64Array {
  const totals = new Float64Array(WANTED);
  wanted.forEach((set, k) => {
    let total = 0;
    for (const t of set) total += idf(t);
    totals[k] = total;
  });
  if (weightOf.length < termIdCount()) {
    weightOf = new Float64Array(termIdCount() * 2);
    setsOf = new Uint8Array(termIdCount() * 2);
  }
  wanted.forEach((set, k) => {
    for (const t of set) {
      weightOf[t] = idf(t);
      setsOf[t]! |= 1 << k;
    }
  });
  return totals;
}

function clearWanted(wanted: readonly ReadonlySet<number>[]): void {
  for (const set of wanted) for (const t of set) setsOf[t] = 0;
}

/**
 * For each wanted set, the share of its IDF weight that `terms` hold (0 when it wants nothing),
 * written to `out` from `at`: all of them in one pass over the terms, each sum still taken in the
 * terms' order.
 */
function sharesInto(terms: Int32Array, totals: Float64Array, out: Float64Array, at: number): void {
  let own = 0;
  let best = 0;
  let definition = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    // A heading's term may be newer than the tables: no set wants it.
    const sets = t < setsOf.length ? setsOf[t]! : 0;
    if (sets === 0) continue;
    const w = weightOf[t]!;
    if (sets & (1 << OWN)) own += w;
    if (sets & (1 << BEST_TERMS_SET)) best += w;
    if (sets & (1 << DEFINITION)) definition += w;
  }
  out[at + OWN] = totals[OWN]! <= 0 ? 0 : own / totals[OWN]!;
  out[at + BEST_TERMS_SET] = totals[BEST_TERMS_SET]! <= 0 ? 0 : best / totals[BEST_TERMS_SET]!;
  out[at + DEFINITION] = totals[DEFINITION]! <= 0 ? 0 : definition / totals[DEFINITION]!;
}

/**
 * The best section's most distinctive terms (count × IDF), the query's own aside, most
 * distinctive first (the order a stable sort gives: ties in first-seen order), chosen in one pass.
 */
function bestTermsOf(
  sections: readonly SectionPassages[],
  query: ReadonlySet<number>,
  idf: (id: number) => number,
): Set<number> {
  const best = sections.find((s) => s.section.isBest);
  if (best === undefined) return new Set();
  const terms: number[] = [];
  const weights: number[] = [];
  for (const [t, count] of termCounts(best.section.text)) {
    if (query.has(t)) continue;
    const w = count * idf(t);
    // After every term weighing as much or more: a later term never passes an equal one.
    let j = weights.length;
    while (j > 0 && weights[j - 1]! < w) j--;
    if (j >= BEST_TERMS) continue;
    terms.splice(j, 0, t);
    weights.splice(j, 0, w);
    if (terms.length > BEST_TERMS) {
      terms.pop();
      weights.pop();
    }
  }
  return new Set(terms);
}

/** Where a section stands: near the best match, or near the page's opening when the query names the page's topic. */
function nearness(position: number, anchors: readonly number[], options: PassageOptions): number {
  if (anchors.length === 0) return 0;
  let distance = Number.POSITIVE_INFINITY;
  for (const a of anchors) distance = Math.min(distance, Math.abs(position - a));
  return options.nearBestWeight * options.nearBestDecay ** distance;
}

/** Every passage's score: its share of each evidence set, and where it stands. */
function scoreSections(
  sections: readonly SectionPassages[],
  totals: Float64Array,
  options: PassageOptions,
): Map<Passage, number> {
  const score = new Map<Passage, number>();
  const anchors: number[] = [];
  for (const s of sections) if (s.section.isBest || s.section.opening) anchors.push(s.section.position);
  for (const { section, passages } of sections) {
    if (sharesOf.length < (passages.length + 1) * WANTED)
      sharesOf = new Float64Array((passages.length + 1) * WANTED * 2);
    // The heading's shares go after the passages'.
    const headingAt = passages.length * WANTED;
    sharesInto(headingTerms(section.headings), totals, sharesOf, headingAt);
    const heading = sharesOf[headingAt + OWN]!;
    const near = nearness(section.position, anchors, options);
    for (let i = 0; i < passages.length; i++) sharesInto(passages[i]!.terms, totals, sharesOf, i * WANTED);
    for (let i = 0; i < passages.length; i++) {
      const at = i * WANTED;
      const before = i > 0 ? sharesOf[at - WANTED + OWN]! : 0;
      const after = i + 1 < passages.length ? sharesOf[at + WANTED + OWN]! : 0;
      score.set(
        passages[i]!,
        sharesOf[at + OWN]! +
          options.headingWeight * heading +
          options.sectionWeight * section.match +
          options.neighbourWeight * Math.max(before, after) +
          options.bestTermsWeight * sharesOf[at + BEST_TERMS_SET]! +
          options.definitionWeight * sharesOf[at + DEFINITION]! +
          near +
          (i === 0 ? options.leadWeight : 0),
      );
    }
  }
  return score;
}

function scoreResult(
  sections: SectionPassages[],
  query: Set<number>,
  idf: (id: number) => number,
  options: PassageOptions,
): Map<Passage, number> {
  const defined = new Set([...definitionsOf(sections, query).values()].flat());
  // In the order OWN, BEST_TERMS_SET, DEFINITION.
  const wanted = [query, bestTermsOf(sections, query, idf), defined];
  const totals = fillWanted(wanted, idf);
  try {
    return scoreSections(sections, totals, options);
  } finally {
    clearWanted(wanted);
  }
}

export function scorePassages(term: string, results: readonly SearchResult[], options: PassageOptions): ScoredResult[] {
  renewWhenFull();
  const used = new Set<readonly Passage[]>();
  const all = results.map((r) => candidateSections(r, used));
  const idf = idfOf(all);
  try {
    const ids = tokenize(term).flatMap((t) => knownTermId(t) ?? []);
    const query = new Set(ids.filter((t) => idf(t) > 0));
    return results.map((result, i) => ({
      result,
      sections: all[i]!,
      score: scoreResult(all[i]!, query, idf, options),
    }));
  } finally {
    tally.reset();
  }
}
