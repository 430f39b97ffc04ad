import type { LexicalHits } from '../index/lexical-accumulator.js';
import { plainText, tokenize } from '../index/tokenize.js';

/**
 * Query expansion from the corpus itself (pseudo-relevance feedback): a paraphrased question
 * shares a few words with the page that answers it and misses the words the page uses for the
 * rest ("make argo put things back when someone edits the cluster" against "self-heal",
 * "drift"). The sections that match the question best, one per page, name those words: a term
 * they use often and the corpus uses rarely joins the query at a weight well below the user's
 * own words, so an exact match still decides and a page that shares no word with the question
 * can be found through the words of the pages that share some. Pure, given the sections' texts.
 */

export interface FeedbackSettings {
  /** How many of the best-matching pages (their best section each) lend their words; 0: off. */
  sections: number;
  /** How many terms join the query at most. */
  terms: number;
  /** The weight of the strongest added term (the user's own weigh 1); the others in proportion. */
  weight: number;
  /** A term must occur in this many of the feedback sections: one page's peculiar word is not the topic's. */
  minSections: number;
  /** Which queries are expanded: questions of six terms or more, or all. */
  queries: 'questions' | 'all';
  /** Whose words lend: the sections' whole text, or only their heading paths (the docs' names for their topics). */
  from: 'text' | 'headings';
}

/** Off unless measured to win (bench/paraphrase-loco.ts). */
export const DEFAULT_FEEDBACK: FeedbackSettings = {
  sections: 0,
  terms: 8,
  weight: 0.3,
  minSections: 2,
  queries: 'questions',
  from: 'text',
};

const WORD = /^\p{L}{3,30}$/u;

/** Whether a query is expanded by feedback under these settings. */
export function feedbackApplies(settings: FeedbackSettings, question: boolean): boolean {
  return settings.sections > 0 && settings.terms > 0 && settings.weight > 0 && (question || settings.queries === 'all');
}

/**
 * The best-scoring section of each of the `count` best-matching documents, best first, with its
 * score relative to the best one's.
 */
export function feedbackSections(
  hits: Pick<LexicalHits, 'sections' | 'scores'>,
  docOf: (section: number) => number,
  count: number,
): { section: number; weight: number }[] {
  const bestOfDoc = new Map<number, number>();
  for (let i = 0; i < hits.sections.length; i++) {
    const doc = docOf(hits.sections[i]!);
    const held = bestOfDoc.get(doc);
    if (held === undefined || hits.scores[i]! > hits.scores[held]!) bestOfDoc.set(doc, i);
  }
  const top = [...bestOfDoc.values()].sort((a, b) => hits.scores[b]! - hits.scores[a]! || a - b).slice(0, count);
  const best = top.length > 0 ? hits.scores[top[0]!]! : 0;
  return top.map((i) => ({ section: hits.sections[i]!, weight: best > 0 ? hits.scores[i]! / best : 0 }));
}

/**
 * The terms the feedback sections lend the query, by weight: each term's share of each section's
 * words, weighted by the section's relative score and summed, times the term's rarity (`rarity`,
 * its IDF over the corpus's highest, in [0, 1]). Terms the query has, stop words, numbers and
 * single letters are never added.
 */
export function feedbackTerms(
  texts: readonly { text: string; weight: number }[],
  query: ReadonlyMap<string, number>,
  rarity: (term: string) => number,
  settings: Pick<FeedbackSettings, 'terms' | 'weight' | 'minSections'>,
): Map<string, number> {
  const mass = new Map<string, number>();
  const seenIn = new Map<string, number>();
  for (const { text, weight } of texts) {
    const words = plainText(text)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => WORD.test(w));
    const tokens = tokenize(words.join(' '));
    if (tokens.length === 0) continue;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      if (query.has(t)) continue;
      mass.set(t, (mass.get(t) ?? 0) + (weight * n) / tokens.length);
      seenIn.set(t, (seenIn.get(t) ?? 0) + 1);
    }
  }
  const ranked = [...mass]
    .filter(([t]) => (seenIn.get(t) ?? 0) >= settings.minSections && t.length >= 3)
    .map(([t, m]) => [t, m * rarity(t)] as const)
    .filter(([, m]) => m > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.terms);
  const top = ranked[0]?.[1] ?? 0;
  return new Map(ranked.map(([t, m]) => [t, (settings.weight * m) / top]));
}

/** What feedback reads of the index. */
export interface FeedbackSource {
  docOf(section: number): number;
  /** A section's text (heading line and body, Markdown). */
  textOf(section: number): string;
  /** A section's heading path, joined. */
  headingsOf(section: number): string;
  /** A term's IDF over the corpus's highest, [0, 1]. */
  rarity(term: string): number;
}

/** `terms` with the feedback terms of a first search's `hits` added (never lowering a term already there). */
export function withFeedback(
  hits: Pick<LexicalHits, 'sections' | 'scores'>,
  terms: ReadonlyMap<string, number>,
  source: FeedbackSource,
  settings: FeedbackSettings,
): Map<string, number> {
  const texts = feedbackSections(hits, (s) => source.docOf(s), settings.sections).map(({ section, weight }) => ({
    text: settings.from === 'headings' ? source.headingsOf(section) : source.textOf(section),
    weight,
  }));
  const out = new Map(terms);
  for (const [t, w] of feedbackTerms(texts, terms, (t) => source.rarity(t), settings))
    if ((out.get(t) ?? 0) < w) out.set(t, w);
  return out;
}
