import type { WindowSection } from '../../search/types.js';
import { type Block, blocksOf, isProse, sentenceKey } from './sentences.js';

/**
 * Each fact once per response. Results are read in rank order, their sections in page order; a
 * block (paragraph, list item, table: sentences.ts) all of whose sentences an earlier section of
 * the response already showed is replaced by a one-line mark naming where, and a run of such
 * blocks by one mark. Boilerplate repeated on every page of a site, a paragraph included in
 * several pages and an upgrade note copied into the next version's notes are shown once. A
 * sentence the docs repeat inside one section stays: the section is shown as written.
 */

/** Where a sentence was first shown: 1-based result rank and 0-based page position. */
interface Origin {
  rank: number;
  position: number;
}

export interface ShownSections {
  sections: WindowSection[];
}

function markOf(origin: Origin, rank: number): string {
  return origin.rank === rank
    ? `[… see section ${origin.position + 1} above]`
    : `[… see result ${origin.rank}, section ${origin.position + 1}]`;
}

const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** A prose block with its sentences already said replaced by "[…]" (a run of them by one). */
function withoutSaid(block: string, said: ReadonlyMap<string, Origin>): string {
  const pieces = block.split(/((?<=[.!?])\s+)/);
  const kept: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const key = sentenceKey(pieces[i]!);
    const gone = key !== undefined && said.has(key);
    if (gone && kept.at(-1)?.endsWith('[…]')) continue;
    if (i > 0) kept.push(pieces[i - 1]!);
    // A list item's marker stays with its item.
    kept.push(gone ? `${i === 0 ? (LIST_MARKER.exec(block)?.[0] ?? '') : ''}[…]` : pieces[i]!);
  }
  return kept.join('');
}

/** A section's `lines` with blocks whose sentences are all in `said` replaced by marks, and said sentences of other prose by "[…]". */
function elided(
  lines: readonly string[],
  blocks: readonly Block[],
  said: ReadonlyMap<string, Origin>,
  rank: number,
): string {
  const out: string[] = [];
  let next = 0;
  let marked = false;
  for (const block of blocks) {
    const repeated = block.keys.length > 0 && block.keys.every((k) => said.has(k));
    const gap = lines.slice(next, block.start);
    const own = lines.slice(block.start, block.end).join('\n');
    next = block.end;
    if (repeated && marked) continue;
    out.push(...gap);
    if (repeated) out.push(`${LIST_MARKER.exec(own)?.[0] ?? ''}${markOf(said.get(block.keys[0]!)!, rank)}`);
    else out.push(block.keys.some((k) => said.has(k)) && isProse(own) ? withoutSaid(own, said) : own);
    marked = repeated;
  }
  out.push(...lines.slice(next));
  return out.join('\n');
}

interface Parsed {
  lines: string[];
  blocks: Block[];
}

/** The sections of each result (rank order) with what earlier sections already showed elided, and the characters that freed. */
export function elideRepeats<T extends ShownSections>(
  results: readonly T[],
  /** Texts already cut into blocks (repeatsElider), filled in as texts are cut. */
  parsed = new Map<string, Parsed>(),
): { results: T[]; freed: number } {
  let freed = 0;
  const said = new Map<string, Origin>();
  const shown = results.map((result, i) => {
    const sections = result.sections.map((section) => {
      let cut = parsed.get(section.text);
      if (cut === undefined) {
        const lines = section.text.split('\n');
        cut = { lines, blocks: blocksOf(lines) };
        parsed.set(section.text, cut);
      }
      const text = elided(cut.lines, cut.blocks, said, i + 1);
      for (const block of cut.blocks)
        for (const k of block.keys) if (!said.has(k)) said.set(k, { rank: i + 1, position: section.position });
      freed += section.text.length - text.length;
      return text === section.text ? section : { ...section, text };
    });
    return { ...result, sections };
  });
  return { results: shown, freed };
}

/**
 * `elideRepeats` for the choices of one response (render.ts elides a first choice and a second
 * with the room that freed): most sections of the second are texts of the first, cut once.
 */
export function repeatsElider(): <T extends ShownSections>(results: readonly T[]) => { results: T[]; freed: number } {
  const parsed = new Map<string, Parsed>();
  return (results) => elideRepeats(results, parsed);
}
