import { STOP_WORDS, stem, tokenize } from '../index/tokenize.js';
import type { VectorMatrix } from '../index/vector-index.js';

/**
 * From a search term to weighted lexical terms. The user's own terms weigh 1. Each plain word may
 * also bring in its nearest words from the corpus vocabulary by the model's word vectors
 * ("refund" → "reimburse"), weighted by similarity and kept well below 1: this is where the
 * model helps most, bridging a paraphrase to the words the docs use, while the ranking stays
 * lexical and explainable.
 */

export interface ParsedQuery {
  terms: Map<string, number>;
  /** Plain words (lower case) whose neighbours may expand the query. */
  readonly words: string[];
  /** Six terms or more: a question rather than a few keywords (its filler is discounted). */
  question: boolean;
}

const MAX_EXPANDED_WORDS = 12;

/**
 * Words that carry the grammar of a question rather than its topic: light verbs, indefinite
 * pronouns, quantifiers and focus adverbs ("make argo put things back when someone edits …").
 * In a question of several words they are kept at FILLER_WEIGHT: they still count as evidence,
 * but not as part of what a page must cover (coverage, breadth) to answer it. Negations are
 * not filler ("sync never finishes"), nor are verbs with a technical sense (keep, run, stop).
 */
const QUESTION_FILLER =
  `make makes made put puts take takes took give gives gave go goes went come comes came do does did
  thing things stuff someone somebody something anyone anybody anything everyone everybody everything
  every each many several single one another whole lot lots
  just only also still really actually instead rather somehow simply directly basically exactly`
    .split(/\s+/)
    .filter(Boolean);
const FILLER_TERMS: ReadonlySet<string> = new Set(QUESTION_FILLER.flatMap((w) => tokenize(w)));
/** From this many terms on, a query is a question whose filler is discounted. */
const QUESTION_TERMS = 6;
export const FILLER_WEIGHT = 0.5;
const WORD = /^\p{L}{3,30}$/u;

/** `discountFiller`: off only where a benchmark measures plain BM25F. */
export function parseQuery(text: string, discountFiller = true): ParsedQuery {
  const terms = new Map<string, number>();
  const tokens = tokenize(text);
  const question = tokens.length >= QUESTION_TERMS;
  const discount = discountFiller && question;
  for (const t of tokens) terms.set(t, discount && FILLER_TERMS.has(t) ? FILLER_WEIGHT : 1);
  let words: string[] | undefined;
  return {
    terms,
    question,
    // Only query expansion asks for the words (a static model's searches never do): split on demand.
    get words() {
      words ??= expansionWords(text, discount);
      return words;
    },
  };
}

/** The plain words of a query that may bring in neighbours: no stop words, no discounted filler, each once. */
function expansionWords(text: string, discount: boolean): string[] {
  const words: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (WORD.test(raw) && !STOP_WORDS.has(raw) && !(discount && FILLER_TERMS.has(stem(raw))) && !words.includes(raw))
      words.push(raw);
    if (words.length >= MAX_EXPANDED_WORDS) break;
  }
  return words;
}

interface ExpansionSettings {
  expansionTerms: number;
  expansionWeight: number;
  expansionMinSimilarity: number;
}

export interface ExpansionTable {
  terms: string[];
  vectors: VectorMatrix;
}

/** Adds up to `expansionTerms` neighbours per word; returns the new term map and what was added. */
export function expandQuery(
  query: ParsedQuery,
  wordVectors: readonly Float32Array[],
  table: ExpansionTable,
  settings: ExpansionSettings,
  /** How informative each query word is in this corpus, [0, 1]: generic words expand less. */
  informativeness: (word: string) => number = () => 1,
): { terms: Map<string, number>; added: { word: string; term: string; similarity: number }[] } {
  const terms = new Map(query.terms);
  const added: { word: string; term: string; similarity: number }[] = [];
  const { dims, data } = table.vectors;
  if (settings.expansionTerms === 0 || settings.expansionWeight === 0 || table.terms.length === 0)
    return { terms, added };
  query.words.forEach((word, w) => {
    const v = wordVectors[w];
    if (!v) return;
    const own = stem(word);
    const best: { term: string; sim: number }[] = [];
    for (let row = 0; row < table.terms.length; row++) {
      let dot = 0;
      const base = row * dims;
      for (let d = 0; d < dims; d++) dot += data[base + d]! * v[d]!;
      if (dot < settings.expansionMinSimilarity) continue;
      const surface = table.terms[row]!;
      // Inflections and compounds of the word itself add nothing the stem doesn't already match.
      if (surface.includes(word) || word.includes(surface)) continue;
      const candidate = stem(surface);
      if (candidate === own) continue;
      const seen = best.find((b) => b.term === candidate);
      if (seen) {
        seen.sim = Math.max(seen.sim, dot);
        continue;
      }
      best.push({ term: candidate, sim: dot });
      best.sort((a, b) => b.sim - a.sim);
      if (best.length > settings.expansionTerms) best.pop();
    }
    const strength = informativeness(word);
    for (const { term, sim } of best) {
      const weight = settings.expansionWeight * sim * strength;
      if (weight <= 0) continue;
      if ((terms.get(term) ?? 0) >= weight) continue;
      terms.set(term, weight);
      added.push({ word, term, similarity: sim });
    }
  });
  return { terms, added };
}
