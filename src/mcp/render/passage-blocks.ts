import { plainText, STOP_WORDS, tokenize } from '../../index/tokenize.js';
import type { WindowSection } from '../../search/types.js';
import { cuesOf, type DefinitionCue, definedFor } from './passage-definitions.js';
import { blocksOf } from './sentences.js';
import { clearTermIds, distinctIds, MAX_TERMS, termId, termIdCount } from './term-ids.js';
import { TextCache } from './text-cache.js';

/**
 * A section cut into the passages a response may show on their own: a paragraph, a list item, a
 * table, a definition, a code block together with the sentence that leads into it (a listing
 * without its lead-in says nothing), each with its terms. The heading line is not a passage: it
 * comes with any passage of its section. All of it follows from the section's text alone, so it
 * is worked out once per text and cached (text-cache.ts): tokenizing and stemming every block of
 * every shown page on every call was most of a SearchDocs call's CPU (docs/benchmarks.md).
 */

export interface Passage {
  /** The passage's lines in its section's text: `[start, end)`. */
  start: number;
  end: number;
  text: string;
  /** Its distinct terms' ids in first-seen order (the project tokenizer: stemmed, stop words out; term-ids.ts). */
  terms: Int32Array;
  /** Its sentences as elide.ts compares them (none for code). */
  keys: readonly string[];
  /** The definitions it gives (passage-definitions.ts). */
  cues: readonly DefinitionCue[];
}

export interface SectionPassages {
  section: WindowSection;
  /** The heading line, when the section starts with one. */
  heading: string | undefined;
  passages: readonly Passage[];
  /**
   * Each term's id and how many of its passages hold it, in pairs, in first-seen order
   * (passage-score.ts counts them per response): one array, not two, per cached text.
   */
  df: Int32Array;
}

/** What a section's text alone says: shared by every call that shows it, so never changed. */
interface SectionText {
  heading: string | undefined;
  passages: readonly Passage[];
  df: Int32Array;
  /** Every sentence of the text as elide.ts compares them. */
  keys: readonly string[];
  /** Its terms' ids with their counts in first-seen order, stop words and short ones out (made when first asked). */
  counts?: ReadonlyMap<number, number>;
}

/**
 * Characters of text whose passages are kept: their memory, term ids included, is about 6 bytes a
 * character (Argo CD's 97 labelled queries show 2,080 sections, 1.69 million characters: 10 MB of
 * heap and typed arrays), so at most about 24 MB, and a corpus that size stays warm.
 */
const CACHED_CHARS = 4_000_000;
const cache = new TextCache<SectionText>(CACHED_CHARS);
/** Heading paths' terms, by the path's lines: short texts, many sections share one. */
const headingCache = new TextCache<Int32Array>(CACHED_CHARS / 10);

const HEADING = /^\s*#{1,6}\s/;
const FENCE = /^\s*(`{3,}|~{3,})/;

function termsOf(text: string): Int32Array {
  return distinctIds(tokenize(plainText(text)));
}

function cut(text: string): SectionText {
  const lines = text.split('\n');
  // Where each line starts: a passage's text is a slice of the section's, which V8 keeps as a view of it, not a copy.
  const at = [0];
  for (const line of lines) at.push(at.at(-1)! + line.length + 1);
  const blocks = blocksOf(lines);
  const heading = blocks[0] && HEADING.test(lines[blocks[0].start]!) ? lines[blocks[0].start] : undefined;
  const passages: Omit<Passage, 'terms' | 'cues'>[] = [];
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
    const passage = {
      start,
      end: block.end,
      text: text.slice(at[start], at[block.end]! - 1),
      keys: [...(leadsIn ? previous.keys : []), ...block.keys],
    };
    if (leadsIn) passages[passages.length - 1] = passage;
    else passages.push(passage);
  }
  const withTerms = passages.map((p) => ({ ...p, terms: termsOf(p.text), cues: cuesOf(p.text) }));
  return { heading, passages: withTerms, df: passageCounts(withTerms), keys: blocks.flatMap((b) => b.keys) };
}

/** Each term of `passages` and how many of them hold it, in pairs, terms in first-seen order. */
function passageCounts(passages: readonly Passage[]): Int32Array {
  const counts = new Map<number, number>();
  for (const { terms } of passages) for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  const pairs = new Int32Array(counts.size * 2);
  let i = 0;
  for (const [t, count] of counts) {
    pairs[i++] = t;
    pairs[i++] = count;
  }
  return pairs;
}

/**
 * The section's passages, the cached objects themselves: callers key maps by passage, so a text a
 * response shows twice (`used` holds the ones it has) gets copies the second time.
 */
export function sectionPassages(section: WindowSection, used: Set<readonly Passage[]>): SectionPassages {
  const { heading, passages, df } = cache.get(section.text, cut);
  const own = used.has(passages) ? passages.map((p) => ({ ...p })) : passages;
  used.add(passages);
  return { section, heading, passages: own, df };
}

/** Every sentence of `text` as elide.ts compares them (its blocks' keys: sentences.ts). */
export function cachedSentenceKeys(text: string): readonly string[] {
  return cache.get(text, cut).keys;
}

/** The terms of `text` (raw, not plain text: links count), with their counts, in first-seen order; stop words and short ones out. */
export function termCounts(text: string): ReadonlyMap<number, number> {
  const held = cache.get(text, cut);
  if (held.counts !== undefined) return held.counts;
  const counts = new Map<number, number>();
  for (const t of tokenize(text))
    if (!STOP_WORDS.has(t) && t.length > 2) {
      const id = termId(t);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  held.counts = counts;
  return counts;
}

/**
 * Heading paths' terms by the headings array itself: a served store hands back the same array for
 * a section it keeps (src/index/section-cache.ts), so most calls neither join nor hash the path.
 * Held only while the array lives; a new map when the term ids start again.
 */
let headingIds = new WeakMap<readonly string[], Int32Array>();

/** The distinct terms' ids of a heading path, in order (a line break joins headings: no term spans one). */
export function headingTerms(headings: readonly string[]): Int32Array {
  let ids = headingIds.get(headings);
  if (ids === undefined) {
    ids = headingCache.get(headings.join('\n'), (path) => distinctIds(tokenize(path)));
    headingIds.set(headings, ids);
  }
  return ids;
}

/**
 * The words the page itself uses to define the query's words (passage-definitions.ts), with the
 * passage that gives each definition.
 */
export function definitionsOf(
  sections: readonly SectionPassages[],
  query: ReadonlySet<number>,
): Map<Passage, number[]> {
  const found = new Map<Passage, number[]>();
  for (const { passages } of sections)
    for (const passage of passages) {
      // Most passages define nothing: no array for them.
      if (passage.cues.length === 0) continue;
      const words = definedFor(passage.cues, query);
      if (words.length > 0) found.set(passage, words);
    }
  return found;
}

/** Texts cached, and their characters (tests and benchmarks read it). */
export function passageCacheSize(): { entries: number; chars: number } {
  return cache.size();
}

/** Drops every cached text (tests compare a cold call with a warm one), and the term ids they used. */
export function clearPassageCache(): void {
  cache.clear();
  headingCache.clear();
  headingIds = new WeakMap();
  clearTermIds();
}

/** Called before a response is scored, never during: a full term table starts again, with the passages that use its ids. */
export function renewWhenFull(): void {
  if (termIdCount() >= MAX_TERMS) clearPassageCache();
}
