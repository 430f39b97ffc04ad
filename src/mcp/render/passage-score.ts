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

function candidateSections(result: SearchResult): SectionPassages[] {
  const inWindow = new Set(result.sections.map((s) => s.position));
  const excerpts = result.excerpts ?? [];
  const extra = excerpts.filter((e) => !inWindow.has(e.position));
  // The page's opening, offered because the query names the page's topic, keeps that mark inside the window too.
  const opening = new Set(excerpts.filter((e) => e.opening).map((e) => e.position));
  const window = result.sections.map((s) => (opening.has(s.position) ? { ...s, opening: true } : s));
  return [...window, ...extra]
    .filter(says)
    .sort((a, b) => a.position - b.position)
    .map(sectionPassages);
}

/** Each term's passage count over the response's passages (shared: responses are scored one at a time). */
const tally = new TermTally();

/** IDF of every term over the response's passages (0 for a term none of them holds), while `tally` holds them. */
function idfOf(all: readonly SectionPassages[][]): (id: number) => number {
  let n = 0;
  for (const sections of all)
    for (const { passages } of sections)
      for (const p of passages) {
        n++;
        for (let i = 0; i < p.terms.length; i++) tally.add(p.terms[i]!);
      }
  return (id) => {
    const d = tally.get(id);
    return d === 0 ? 0 : Math.log(1 + n / d);
  };
}

/** A term's IDF and a bit for each wanted set that holds it, by term id (zeroed after each result). */
let weightOf = new Float64Array(0);
let setsOf = new Uint8Array(0);

/**
 * For each of `wanted`'s sets, the share of its IDF weight that a passage's terms hold (0 when it
 * wants nothing): all of them in one pass over the terms, each sum still taken in the terms'
 * order. `done` zeroes the tables.
 */
function sharesFn(
  wanted: readonly ReadonlySet<number>[],
  idf: (id: number) => number,
): { shares: (terms: Int32Array) => number[]; done: () => void } {
  const totals = wanted.map((set) => {
    let total = 0;
    for (const t of set) total += idf(t);
    return total;
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
  const shares = (terms: Int32Array) => {
    const sums = wanted.map(() => 0);
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      // A heading's term may be newer than the tables: no set wants it.
      const sets = t < setsOf.length ? setsOf[t]! : 0;
      if (sets !== 0) for (let k = 0; k < sums.length; k++) if (sets & (1 << k)) sums[k]! += weightOf[t]!;
    }
    // In place: one array per passage, not two.
    for (let k = 0; k < sums.length; k++) sums[k] = totals[k]! <= 0 ? 0 : sums[k]! / totals[k]!;
    return sums;
  };
  const done = () => {
    for (const set of wanted) for (const t of set) setsOf[t] = 0;
  };
  return { shares, done };
}

/** The best section's most distinctive terms (count × IDF), the query's own aside. */
function bestTermsOf(
  sections: readonly SectionPassages[],
  query: ReadonlySet<number>,
  idf: (id: number) => number,
): Set<number> {
  const best = sections.find((s) => s.section.isBest);
  if (best === undefined) return new Set();
  const weighed: { t: number; w: number }[] = [];
  for (const [t, count] of termCounts(best.section.text)) if (!query.has(t)) weighed.push({ t, w: count * idf(t) });
  const ranked = weighed.sort((a, b) => b.w - a.w);
  return new Set(ranked.slice(0, BEST_TERMS).map(({ t }) => t));
}

/** Every passage's score: its share of each evidence set, and where it stands. */
function scoreSections(
  sections: SectionPassages[],
  shares: (terms: Int32Array) => number[],
  options: PassageOptions,
): Map<Passage, number> {
  const [own, bestTerms, definition] = [0, 1, 2];
  const score = new Map<Passage, number>();
  // Near the best match, or near the page's opening when the query names the page's topic.
  const anchors = sections.filter((s) => s.section.isBest || s.section.opening).map((s) => s.section.position);
  for (const { section, passages } of sections) {
    const heading = shares(headingTerms(section.headings))[own]!;
    const distance = Math.min(...anchors.map((a) => Math.abs(section.position - a)));
    const near = anchors.length === 0 ? 0 : options.nearBestWeight * options.nearBestDecay ** distance;
    const each = passages.map((p) => shares(p.terms));
    passages.forEach((p, i) => {
      const neighbour = Math.max(each[i - 1]?.[own] ?? 0, each[i + 1]?.[own] ?? 0);
      const mine = each[i]!;
      score.set(
        p,
        mine[own]! +
          options.headingWeight * heading +
          options.sectionWeight * section.match +
          options.neighbourWeight * neighbour +
          options.bestTermsWeight * mine[bestTerms]! +
          options.definitionWeight * mine[definition]! +
          near +
          (i === 0 ? options.leadWeight : 0),
      );
    });
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
  // The query's own terms, the best section's distinctive ones, and the page's definitions of the query's words.
  const { shares, done } = sharesFn([query, bestTermsOf(sections, query, idf), defined], idf);
  try {
    return scoreSections(sections, shares, options);
  } finally {
    done();
  }
}

export function scorePassages(term: string, results: readonly SearchResult[], options: PassageOptions): ScoredResult[] {
  renewWhenFull();
  const all = results.map(candidateSections);
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
