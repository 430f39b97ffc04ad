import { TextCache } from './text-cache.js';

/**
 * Sentences as a response compares them: a result whose section says again what a better result
 * already showed adds nothing. A section's text is cut into blocks (a paragraph, a list item, a
 * table, a heading, a code block); a block's sentences are its prose, hard-wrapped lines joined,
 * split after . ! or ?, normalised (markup, case and spacing aside). Short ones (a closing brace,
 * "For example:") are not facts, nor are headings, link reference definitions or the lines of code
 * blocks (two pages sharing an `import` line say nothing twice).
 */

const MIN_SENTENCE_CHARS = 30;

export interface Block {
  /** The block's lines in its text: `[start, end)`. */
  start: number;
  end: number;
  /** Its sentences, normalised: none for code, headings and link definitions. */
  keys: readonly string[];
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const STARTS_BLOCK = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\|)/;
const TABLE_ROW = /^\s*\|/;
/** A table's separator row, under its header row. */
const TABLE_HEADER = /^\s*\|?\s*:?-{3,}/;
const NOT_PROSE = /^\s*(?:#{1,6}\s|\[[^\]\n]+\]:\s)/;

/** A sentence as compared: a link as its text (a relative URL differs from page to page), markup, case and spacing aside; undefined when too short to be a fact. */
export function sentenceKey(sentence: string): string | undefined {
  const key = sentence
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/[*`_]+/g, '')
    .replace(/[#>|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return key.length >= MIN_SENTENCE_CHARS && /\p{L}{3}/u.test(key) ? key : undefined;
}

/** Where a sentence ends, inside a paragraph. */
export const SENTENCE_END = /(?<=[.!?])\s+/;

/**
 * Blocks' sentences, by the block's text: elide.ts cuts every shown section of every response into
 * blocks, and the passages a response shows are blocks of texts shown before. Bounded like the
 * passage cache (text-cache.ts), a quarter of its size: the blocks Argo CD's 97 labelled questions
 * show fit (a bound they cycle through misses every time).
 */
const blockKeys = new TextCache<readonly string[]>(1_000_000);

function keysOf(prose: string): readonly string[] {
  return blockKeys.get(prose, proseKeys);
}

function proseKeys(prose: string): string[] {
  if (NOT_PROSE.test(prose)) return [];
  // A table's header row names its columns: a label, not a fact.
  const rows = TABLE_ROW.test(prose)
    ? prose.split('\n').filter((_row, i, all) => !TABLE_HEADER.test(all[i + 1] ?? ''))
    : [prose];
  return rows.flatMap((row) => row.split(SENTENCE_END)).flatMap((s) => sentenceKey(s) ?? []);
}

/** Whether a block is a paragraph or list item of prose (sentences of it may go; not a table's rows). */
export function isProse(text: string): boolean {
  return !TABLE_ROW.test(text) && !NOT_PROSE.test(text) && !FENCE.test(text);
}

/** Splits markdown lines into blocks (blank lines belong to none); a code fence is one block, without sentences. */
export function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let start = -1;
  let fence = '';
  const close = (end: number) => {
    if (start >= 0) blocks.push({ start, end, keys: fence ? [] : keysOf(lines.slice(start, end).join('\n')) });
    start = -1;
    fence = '';
  };
  lines.forEach((line, i) => {
    if (fence) {
      if (line.trim().startsWith(fence) && /^[`~]+$/.test(line.trim())) close(i + 1);
      return;
    }
    const opens = FENCE.exec(line);
    const tableGoesOn = TABLE_ROW.test(line) && start >= 0 && TABLE_ROW.test(lines[start]!);
    if (opens || line.trim() === '' || (STARTS_BLOCK.test(line) && !tableGoesOn)) close(i);
    if (line.trim() !== '' && start < 0) start = i;
    if (opens) fence = opens[1]!;
  });
  close(lines.length);
  return blocks;
}

/** The share of `keys` not in `shown` (1 when there are none to compare). */
export function novelty(keys: readonly string[], shown: ReadonlySet<string>): number {
  if (keys.length === 0) return 1;
  let fresh = 0;
  for (const k of keys) if (!shown.has(k)) fresh++;
  return fresh / keys.length;
}
