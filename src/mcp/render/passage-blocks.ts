import { plainText, STOP_WORDS, tokenize } from '../../index/tokenize.js';
import type { WindowSection } from '../../search/types.js';
import { blocksOf } from './sentences.js';

/**
 * A section cut into the passages a response may show on their own: a paragraph, a list item, a
 * table, a definition, a code block together with the sentence that leads into it (a listing
 * without its lead-in says nothing), each with its terms. The heading line is not a passage: it
 * comes with any passage of its section.
 */

export interface Passage {
  /** The passage's lines in its section's text: `[start, end)`. */
  start: number;
  end: number;
  text: string;
  /** Its distinct terms (the project tokenizer: stemmed, stop words out). */
  terms: ReadonlySet<string>;
  /** Its sentences as elide.ts compares them (none for code). */
  keys: readonly string[];
}

export interface SectionPassages {
  section: WindowSection;
  lines: readonly string[];
  /** The heading line, when the section starts with one. */
  heading: string | undefined;
  passages: Passage[];
}

const HEADING = /^\s*#{1,6}\s/;
const FENCE = /^\s*(`{3,}|~{3,})/;

function termsOf(text: string): Set<string> {
  return new Set(tokenize(plainText(text)));
}

export function sectionPassages(section: WindowSection): SectionPassages {
  const lines = section.text.split('\n');
  const blocks = blocksOf(lines);
  const heading = blocks[0] && HEADING.test(lines[blocks[0].start]!) ? lines[blocks[0].start] : undefined;
  const passages: Passage[] = [];
  for (const [i, block] of blocks.entries()) {
    if (i === 0 && heading !== undefined) continue;
    const previous = passages.at(-1);
    // A code block joins the passage before it when that one leads into it (ends with a colon, or is a short line).
    const leadsIn =
      previous !== undefined &&
      FENCE.test(lines[block.start]!) &&
      previous.end >= block.start - 1 &&
      (/:\s*$/.test(previous.text) || previous.text.length < 120);
    const start = leadsIn ? previous.start : block.start;
    const text = lines.slice(start, block.end).join('\n');
    const passage = {
      start,
      end: block.end,
      text,
      terms: termsOf(text),
      keys: [...(leadsIn ? previous.keys : []), ...block.keys],
    };
    if (leadsIn) passages[passages.length - 1] = passage;
    else passages.push(passage);
  }
  return { section, lines, heading, passages };
}

/** "**CDN**: a shared cache …", "`retries` | …", "CDN — …", "A CDN is a …", "shared cache (CDN)". */
const DEFINES =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?(?:\*\*|__|`)?([^*`|:\n]{1,60}?)(?:\*\*|__|`)?\s*(?::|\||—|–| - | is an? | are | means )\s*(.+)$/;
const EXPANDS = /([\p{L}][\p{L}\s-]{2,60}?)\s*\(\s*([\p{L}][\p{L}\d-]{1,20})\s*\)/gu;
/** A definition's first this many terms are what it defines the word as. */
const DEFINITION_TERMS = 12;

function meaningOf(text: string, query: ReadonlySet<string>): string[] {
  return tokenize(plainText(text))
    .filter((t) => !query.has(t) && !STOP_WORDS.has(t) && t.length > 2)
    .slice(0, DEFINITION_TERMS);
}

/**
 * The words the page itself uses to define the query's words: from definition lines that name a
 * query word ("**CDN**: a shared cache"), and from an abbreviation spelled out ("shared cache
 * (CDN)") either way. A question asking about "CDN" then counts the page's "shared cache" as
 * evidence. Each passage that gives a definition is returned with what it defines.
 */
export function definitionsOf(
  sections: readonly SectionPassages[],
  query: ReadonlySet<string>,
): Map<Passage, string[]> {
  const found = new Map<Passage, string[]>();
  for (const { passages } of sections)
    for (const passage of passages) {
      const words: string[] = [];
      const first = passage.text.split('\n', 1)[0]!;
      const line = DEFINES.exec(first);
      if (line && tokenize(line[1]!).some((t) => query.has(t))) words.push(...meaningOf(line[2]!, query));
      for (const [, long, short] of passage.text.matchAll(EXPANDS)) {
        if (tokenize(short!).some((t) => query.has(t))) words.push(...meaningOf(long!.split(/[.,;]/).at(-1)!, query));
        else if (tokenize(long!).some((t) => query.has(t))) words.push(...meaningOf(short!, query));
      }
      if (words.length > 0) found.set(passage, words);
    }
  return found;
}
