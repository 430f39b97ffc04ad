import { plainText, tokenize } from '../index/tokenize.js';

/**
 * Query expansion by co-occurrence in the corpus itself: a query word's neighbours are the terms
 * the sections using it use too, rare ones first (P(term | word) × the term's rarity). "inherit"
 * in a site generator's docs keeps company with `cascade`; the docs' own word for the question's
 * topic joins the query at a weight well below the user's own, so exact matches still decide.
 * Only words used in few sections expand: a common word's company is the whole corpus. Pure,
 * given what it reads of the index.
 */

export interface CooccurrenceSettings {
  /** Neighbours per query word; 0: off. */
  terms: number;
  /** The weight of the strongest neighbour of all (the user's own words weigh 1); others in proportion. */
  weight: number;
  /** A word used in more sections than this brings no neighbours. */
  maxSections: number;
  /** A neighbour must share this many of the word's sections. */
  minShared: number;
  /** Which queries are expanded: questions of six terms or more, or all. */
  queries: 'questions' | 'all';
}

/** Off unless measured to win (bench/paraphrase-loco.ts). */
export const DEFAULT_COOCCURRENCE: CooccurrenceSettings = {
  terms: 0,
  weight: 0.3,
  maxSections: 40,
  minShared: 2,
  queries: 'questions',
};

/** What co-occurrence reads of the index. */
export interface CooccurrenceSource {
  sectionsWith(term: string): Int32Array;
  /** A section's text (heading line and body, Markdown). */
  textOf(section: number): string;
  /** A term's IDF over the corpus's highest, [0, 1]. */
  rarity(term: string): number;
}

const WORD = /^\p{L}{3,30}$/u;

export function cooccurrenceApplies(settings: CooccurrenceSettings, question: boolean): boolean {
  return settings.terms > 0 && settings.weight > 0 && (question || settings.queries === 'all');
}

/** Each term of the word's sections: in how many of them it occurs. */
function company(sections: Int32Array, textOf: (s: number) => string): Map<string, number> {
  const shared = new Map<string, number>();
  for (const s of sections) {
    const words = plainText(textOf(s))
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => WORD.test(w));
    for (const t of new Set(tokenize(words.join(' ')))) shared.set(t, (shared.get(t) ?? 0) + 1);
  }
  return shared;
}

/** `terms` with each own term's (weight ≥ 1) strongest neighbours added, never lowering a term already there. */
export function withCooccurrence(
  terms: ReadonlyMap<string, number>,
  source: CooccurrenceSource,
  settings: CooccurrenceSettings,
): Map<string, number> {
  const found: { term: string; score: number }[] = [];
  for (const [word, w] of terms) {
    if (w < 1) continue;
    const sections = source.sectionsWith(word);
    if (sections.length === 0 || sections.length > settings.maxSections) continue;
    const neighbours = [...company(sections, (s) => source.textOf(s))]
      .filter(([t, n]) => n >= settings.minShared && !terms.has(t) && t.length >= 3)
      .map(([term, n]) => ({ term, score: (n / sections.length) * source.rarity(term) }))
      .sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1))
      .slice(0, settings.terms);
    found.push(...neighbours);
  }
  const top = Math.max(0, ...found.map((f) => f.score));
  const out = new Map(terms);
  for (const { term, score } of found) {
    const weight = top > 0 ? (settings.weight * score) / top : 0;
    if (weight > (out.get(term) ?? 0)) out.set(term, weight);
  }
  return out;
}
