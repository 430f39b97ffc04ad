import type { RootContent } from 'mdast';

/**
 * Cuts an over-long section into parts of at most `max` characters, at block starts and, inside
 * an over-long list, at item starts. A single block is kept whole up to BLOCK_SPLIT_FACTOR × max
 * (a long code sample or table reads best in one piece); a longer one, such as the rest of a
 * file after an unclosed code fence, is cut into parts of at most `max`: at line ends, and a
 * line longer than `max` near a space (or at the limit). A code block's parts are each closed
 * and reopened with the block's own fence, and a table's repeat its header, so each part is a
 * valid block. Joined, the parts are the section's text, except for those added lines. No part
 * is longer than BLOCK_SPLIT_FACTOR × max + MAX_SPLIT_OVERSHOOT. Pure: text in, text out.
 */

/** The longest opening fence line (fence and info string) repeated in the parts of a split code block. */
const FENCE_LINE_MAX = 120;
/** How far a part may exceed the chunk size: a reopening and a closing fence line. */
export const MAX_SPLIT_OVERSHOOT = 2 * FENCE_LINE_MAX + 2;
/** A block up to this many times the section size stays whole. */
export const BLOCK_SPLIT_FACTOR = 4;

interface Block {
  start: number;
  /** Where the block's own text ends; [end, next block start) is whitespace between blocks. */
  end: number;
  node?: RootContent;
}

export function splitSection(start: number, end: number, blocks: RootContent[], source: string, max: number): string[] {
  if (end - start <= max) return [source.slice(start, end)];
  const atoms: string[] = [];
  const ranges = blockRanges(start, end, blocks, source);
  ranges.forEach((block, i) => {
    const until = ranges[i + 1]?.start ?? end;
    const length = until - block.start;
    const list = block.node?.type === 'list' && length > max;
    if (!list && length <= BLOCK_SPLIT_FACTOR * max) atoms.push(source.slice(block.start, until));
    else atoms.push(...splitBlock(block, until, source, max));
  });
  return pack(atoms, max);
}

/** The heading line (and whatever precedes the first block), then each block. */
function blockRanges(start: number, end: number, blocks: RootContent[], _source: string): Block[] {
  const ranges: Block[] = [];
  for (const node of blocks) {
    const from = node.position?.start.offset ?? end;
    if (from < start || from >= end) continue;
    if (ranges.length === 0 && from > start) ranges.push({ start, end: from });
    ranges.push({ start: from, end: Math.min(node.position?.end.offset ?? end, end), node });
  }
  if (ranges.length === 0) ranges.push({ start, end });
  return ranges;
}

function splitBlock(block: Block, until: number, source: string, max: number): string[] {
  const node = block.node;
  if (node?.type === 'code') {
    const parts = splitCode(source.slice(block.start, block.end), max);
    if (parts !== undefined) return [...parts, ...splitLines(source.slice(block.end, until), max)];
  }
  if (node?.type === 'table') {
    const parts = splitTable(source.slice(block.start, block.end), max);
    if (parts !== undefined) return [...parts, ...splitLines(source.slice(block.end, until), max)];
  }
  if (node?.type === 'list') {
    const cuts = [block.start, ...node.children.slice(1).map((item) => item.position?.start.offset ?? until), until];
    return cuts.slice(0, -1).flatMap((from, i) => {
      const to = cuts[i + 1]!;
      return to - from <= BLOCK_SPLIT_FACTOR * max ? [source.slice(from, to)] : splitLines(source.slice(from, to), max);
    });
  }
  return splitLines(source.slice(block.start, until), max);
}

/** Greedy: consecutive atoms share a part while they fit. */
function pack(atoms: string[], max: number): string[] {
  const parts: string[] = [];
  let current = '';
  for (const atom of atoms) {
    if (current !== '' && current.length + atom.length > max) {
      parts.push(current);
      current = '';
    }
    current += atom;
  }
  if (current !== '') parts.push(current);
  return parts;
}

/** Lines packed into parts of at most `max`; a longer line is cut near the limit. Joined: `text`. */
export function splitLines(text: string, limit: number): string[] {
  const max = Math.max(1, limit);
  const atoms: string[] = [];
  for (const line of text.split(/(?<=\n)/)) {
    let rest = line;
    while (rest.length > max) {
      const cut = cutPoint(rest, max);
      atoms.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    if (rest !== '') atoms.push(rest);
  }
  return pack(atoms, max);
}

/** Where to cut a line longer than `max`: after the last space in its second half, else at `max` (never inside a surrogate pair). */
function cutPoint(line: string, max: number): number {
  const space = line.lastIndexOf(' ', max - 1);
  if (space >= max / 2) return space + 1;
  const code = line.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff && max > 1 ? max - 1 : max;
}

/**
 * A fenced (or indented) code block as fenced parts. Undefined when its fence line is too long
 * to repeat in every part (then it is cut like any other block).
 */
function splitCode(text: string, max: number): string[] | undefined {
  const lines = text.split(/(?<=\n)/);
  const fence = /^( {0,3})(`{3,}|~{3,})/.exec(lines[0] ?? '');
  let open = '```\n';
  let close = '```\n';
  let content = lines;
  let closing: string | undefined;
  if (fence) {
    const [, indent, marker] = fence as unknown as [string, string, string];
    open = lines[0]!.endsWith('\n') ? lines[0]! : `${lines[0]}\n`;
    close = `${indent}${marker}\n`;
    const last = lines.length > 1 ? lines[lines.length - 1]! : '';
    const closes = new RegExp(`^ {0,3}${marker[0]}{${marker.length},}[ \\t]*\\r?\\n?$`).test(last);
    // A closing line padded past the limit is replaced by a plain one (only whitespace is lost).
    closing = closes && last.length <= FENCE_LINE_MAX ? last : undefined;
    content = lines.slice(1, closes ? -1 : undefined);
  }
  if (open.length > FENCE_LINE_MAX) return undefined;
  const budget = Math.max(1, max - open.length - close.length - 1);
  const bodies = splitLines(content.join(''), budget);
  if (bodies.length === 0) bodies.push('');
  return bodies.map((body, i) => {
    const ended = body === '' || body.endsWith('\n') ? body : `${body}\n`;
    const end = i === bodies.length - 1 && closing !== undefined ? closing : close;
    // The first part opens with the block's own fence line, as written.
    return `${open}${ended}${end}`;
  });
}

/** A table as tables: each part repeats the header row and the delimiter row. Undefined when the header is too long to repeat. */
function splitTable(text: string, max: number): string[] | undefined {
  const lines = text.split(/(?<=\n)/);
  const head = lines.slice(0, 2).join('');
  if (lines.length < 3 || head.length > max / 2) return undefined;
  const rows = splitLines(lines.slice(2).join(''), max - head.length - 1);
  return rows.map((body) => `${head.endsWith('\n') ? head : `${head}\n`}${body}`);
}
