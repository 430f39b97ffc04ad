import type { StoredDocument } from '../index/format.js';
import type { SectionSource } from '../index/section-store.js';
import { answeringSection, answers, type SectionFacts } from './best-section.js';
import { strongestOtherSections, type ExcerptFacts, type ExcerptSettings } from './excerpts.js';
import type { DocumentHit } from './document-ranker.js';
import type { RankedResult } from './searcher-types.js';
import type { SearchResult } from './types.js';
import { windowAround } from './window.js';

/** A ranked result's confidence, and its window filled in with headings and text from the index. */

/** What a window needs of the index: every document, and the sections (read for the positions shown). */
interface WindowSource {
  readonly documents: readonly Pick<StoredDocument, 'firstSection'>[];
  readonly sections: SectionSource;
}

export function withSections(ranked: RankedResult, index: WindowSource): SearchResult {
  const { doc, window, excerpts, ...rest } = ranked;
  const first = index.documents[doc]!.firstSection;
  // The window in one read (it is a run of sections); an excerpt outside it in one of its own.
  const from = window[0]?.position ?? 0;
  const run = index.sections.slice(first + from, first + from + window.length);
  const fill = (w: RankedResult['window'][number]) => {
    const inRun = w.position >= from && w.position < from + run.length;
    const s = inRun ? run[w.position - from]! : index.sections.slice(first + w.position, first + w.position + 1)[0]!;
    return { ...w, headings: s.headings, text: s.text };
  };
  const result: SearchResult = { ...rest, sections: window.map(fill) };
  if (excerpts !== undefined && excerpts.length > 0) result.excerpts = excerpts.map(fill);
  return result;
}

/**
 * Of this share of the query (IDF share of its own terms) in a page's title and more, the query
 * names the page's topic: it wants the page's opening and setup, not only its best subsection.
 */
export const NAMES_TOPIC = 0.5;

/**
 * A ranked page's window: up to 15 sections each side of the section that answers (`ranked` is the
 * best-scoring one: best-section.ts), with how much of the query each matches, and the page's
 * other strongly matching sections for excerpts (excerpts.ts). `facts` holds every section of the
 * page, in order.
 */
export function windowOf(
  facts: readonly (SectionFacts & ExcerptFacts)[],
  ranked: number,
  excerpts: ExcerptSettings,
  /** The query names the page's topic: its opening (first answering section) comes as an excerpt too. */
  namesTopic = false,
): Pick<RankedResult, 'window' | 'excerpts'> {
  const best = answeringSection(facts, ranked);
  const { from, to } = windowAround(best, facts.length);
  let top = 0;
  for (const f of facts) top = Math.max(top, f.score);
  const item = (p: number, isBest: boolean) => {
    const f = facts[p]!;
    return { position: p, isBest, match: f.match, score: top > 0 ? f.score / top : 0, role: f.role };
  };
  const window: RankedResult['window'] = [];
  for (let p = from; p <= to; p++) window.push(item(p, p === best));
  const others: NonNullable<RankedResult['excerpts']> = strongestOtherSections(facts, best, excerpts.count).map((p) =>
    item(p, false),
  );
  const opening = namesTopic ? facts.findIndex((f) => answers(f)) : -1;
  if (opening >= 0 && opening !== best) {
    const at = others.findIndex((o) => o.position === opening);
    if (at >= 0) others.splice(at, 1);
    others.unshift({ ...item(opening, false), opening: true });
  }
  if (others.length === 0) return { window };
  return { window, excerpts: others };
}

/**
 * How sure we are that a result answers the query, in [0, 1]: how much of the query its best
 * section matches (IDF-weighted, rewrites and filler at their weight), damped steeply for results scoring
 * below the top one (on the labelled sets a result at 90 % of the top score is relevant a quarter
 * of the time). Matches found by the vector side alone count as half-covered at best.
 */
export function confidence(hit: DocumentHit, topScore: number): number {
  const coverage = Math.max(hit.best.coverage, 0.5 * hit.best.vectorNorm * (hit.best.lexical > 0 ? 1 : 0.6));
  const rank = topScore > 0 ? Math.min(1, hit.score / topScore) : 0;
  return coverage * rank ** 4;
}
