import { tokenize } from '../../index/tokenize.js';
import type { PassageOptions } from '../../search/passage-options.js';
import type { SearchResult, WindowSection } from '../../search/types.js';
import {
  definitionsOf,
  type Passage,
  type SectionPassages,
  headingTerms,
  sectionPassages,
  termCounts,
} from './passage-blocks.js';

/**
 * How much of an answer each passage of each result holds, for the query: its own words (IDF over
 * the passages of this response, so a word every page repeats counts little), its heading path,
 * its section's match as the engine measured it (every spelling and expansion), its neighbours,
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

type Weigh = (terms: Iterable<string>) => number;

/** IDF of every term over the response's passages (0 for a term none of them holds). */
function idfOf(all: readonly SectionPassages[][]): (t: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const sections of all)
    for (const { passages } of sections)
      for (const p of passages) {
        n++;
        for (const t of p.terms) df.set(t, (df.get(t) ?? 0) + 1);
      }
  return (t) => {
    const d = df.get(t);
    return d === undefined ? 0 : Math.log(1 + n / d);
  };
}

/** The share of `wanted`'s IDF weight that `terms` hold (0 when nothing is wanted). */
function shareFn(wanted: ReadonlySet<string>, idf: (t: string) => number): Weigh {
  let total = 0;
  for (const t of wanted) total += idf(t);
  return (terms) => {
    if (total <= 0) return 0;
    let s = 0;
    for (const t of terms) if (wanted.has(t)) s += idf(t);
    return s / total;
  };
}

/** The best section's most distinctive terms (count × IDF), the query's own aside. */
function bestTermsOf(
  sections: readonly SectionPassages[],
  query: ReadonlySet<string>,
  idf: (t: string) => number,
): Set<string> {
  const best = sections.find((s) => s.section.isBest);
  if (best === undefined) return new Set();
  const count = [...termCounts(best.section.text)].filter(([t]) => !query.has(t));
  const ranked = count.sort((a, b) => b[1] * idf(b[0]) - a[1] * idf(a[0]));
  return new Set(ranked.slice(0, BEST_TERMS).map(([t]) => t));
}

function scoreResult(
  sections: SectionPassages[],
  query: Set<string>,
  idf: (t: string) => number,
  options: PassageOptions,
): Map<Passage, number> {
  const own = shareFn(query, idf);
  const best = shareFn(bestTermsOf(sections, query, idf), idf);
  const defined = new Set([...definitionsOf(sections, query).values()].flat());
  const definition = shareFn(defined, idf);
  const score = new Map<Passage, number>();
  // Near the best match, or near the page's opening when the query names the page's topic.
  const anchors = sections.filter((s) => s.section.isBest || s.section.opening).map((s) => s.section.position);
  for (const { section, passages } of sections) {
    const heading = own(headingTerms(section.headings));
    const distance = Math.min(...anchors.map((a) => Math.abs(section.position - a)));
    const near = anchors.length === 0 ? 0 : options.nearBestWeight * options.nearBestDecay ** distance;
    const mine = passages.map((p) => own(p.terms));
    passages.forEach((p, i) => {
      const neighbour = Math.max(mine[i - 1] ?? 0, mine[i + 1] ?? 0);
      score.set(
        p,
        mine[i]! +
          options.headingWeight * heading +
          options.sectionWeight * section.match +
          options.neighbourWeight * neighbour +
          options.bestTermsWeight * best(p.terms) +
          options.definitionWeight * definition(p.terms) +
          near +
          (i === 0 ? options.leadWeight : 0),
      );
    });
  }
  return score;
}

export function scorePassages(term: string, results: readonly SearchResult[], options: PassageOptions): ScoredResult[] {
  const all = results.map(candidateSections);
  const idf = idfOf(all);
  const query = new Set(tokenize(term).filter((t) => idf(t) > 0));
  return results.map((result, i) => ({ result, sections: all[i]!, score: scoreResult(all[i]!, query, idf, options) }));
}
