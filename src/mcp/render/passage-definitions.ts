import { plainText, STOP_WORDS, tokenize } from '../../index/tokenize.js';
import { termId } from './term-ids.js';

/**
 * The words a page itself uses to define a word: definition lines ("**CDN**: a shared cache") and
 * abbreviations spelled out ("shared cache (CDN)", either way round). A question asking about
 * "CDN" then counts the page's "shared cache" as evidence (passage-score.ts). What a passage
 * defines is read once per text (`cuesOf`, cached with its passages); which of those cues a query
 * names is the only per-call work (`definedFor`).
 */

/** One way a cue applies: when the query names one of `names`, `meaning` is what it is defined as (term ids: term-ids.ts). */
interface Reading {
  names: readonly number[];
  /** The meaning's terms in order, stop words and short ones out (the query's own go per call). */
  meaning: readonly number[];
}

/** A definition the text gives: its first reading that names a query word counts, the others not. */
export type DefinitionCue = readonly Reading[];

/** "**CDN**: a shared cache …", "`retries` | …", "CDN — …", "A CDN is a …", "shared cache (CDN)". */
const DEFINES =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?(?:\*\*|__|`)?([^*`|:\n]{1,60}?)(?:\*\*|__|`)?\s*(?::|\||—|–| - | is an? | are | means )\s*(.+)$/;
const EXPANDS = /([\p{L}][\p{L}\s-]{2,60}?)\s*\(\s*([\p{L}][\p{L}\d-]{1,20})\s*\)/gu;
/** What EXPANDS needs inside its brackets: found fast, where EXPANDS tries every start (a link's "(https://…" is none). */
const BRACKETED_WORD = /\(\s*[\p{L}][\p{L}\d-]{1,20}\s*\)/u;
/** A definition's first this many terms are what it defines the word as. */
const DEFINITION_TERMS = 12;

function meaningTerms(text: string): number[] {
  return tokenize(plainText(text))
    .filter((t) => !STOP_WORDS.has(t) && t.length > 2)
    .map(termId);
}

function names(text: string): number[] {
  return tokenize(text).map(termId);
}

/** The definitions a passage's text gives, in the order they count: its first line's, then each spelled-out abbreviation. */
export function cuesOf(text: string): DefinitionCue[] {
  const cues: DefinitionCue[] = [];
  const first = text.split('\n', 1)[0]!;
  const line = DEFINES.exec(first);
  if (line) cues.push([{ names: names(line[1]!), meaning: meaningTerms(line[2]!) }]);
  // An abbreviation spelled out: only where a word stands in brackets, since EXPANDS is slow to find none.
  if (BRACKETED_WORD.test(text))
    for (const [, long, short] of text.matchAll(EXPANDS))
      cues.push([
        { names: names(short!), meaning: meaningTerms(long!.split(/[.,;]/).at(-1)!) },
        { names: names(long!), meaning: meaningTerms(short!) },
      ]);
  return cues;
}

/** The words `cues` define the query's words as (empty when they name none of them). */
export function definedFor(cues: readonly DefinitionCue[], query: ReadonlySet<number>): number[] {
  const words: number[] = [];
  for (const cue of cues) {
    const reading = cue.find((r) => r.names.some((t) => query.has(t)));
    if (reading !== undefined) words.push(...reading.meaning.filter((t) => !query.has(t)).slice(0, DEFINITION_TERMS));
  }
  return words;
}
