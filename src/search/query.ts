import { tokenize } from '../index/tokenize.js';

/**
 * From a search term to weighted lexical terms: the user's own terms weigh 1, a question's filler
 * less. (Expanding them with the model's nearest corpus words was removed in issue 41: the
 * default static model never did, and no measurement kept it for sentence models.)
 */

export interface ParsedQuery {
  terms: Map<string, number>;
  /** Six terms or more: a question rather than a few keywords (its filler is discounted). */
  question: boolean;
}

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

/** `discountFiller`: off only where a benchmark measures plain BM25F. */
export function parseQuery(text: string, discountFiller = true): ParsedQuery {
  const terms = new Map<string, number>();
  const tokens = tokenize(text);
  const question = tokens.length >= QUESTION_TERMS;
  const discount = discountFiller && question;
  for (const t of tokens) terms.set(t, discount && FILLER_TERMS.has(t) ? FILLER_WEIGHT : 1);
  return { terms, question };
}
