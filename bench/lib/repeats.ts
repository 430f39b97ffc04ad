import { answerText } from '../queries/answer-text.js';

/**
 * Facts said twice in one response: sentences of prose (at least MIN_SENTENCE_CHARS, normalised
 * as answer phrases are) that occur in more than one shown section. A response that repeats
 * "about 4 hours" in five results spends four results' room on nothing new.
 *
 * A sentence is prose as a reader sees it: a paragraph's hard-wrapped lines are joined before it
 * is split after . ! or ? (counting the wrapped fragments "the following lines to mkdocs.yml:"
 * of two different sentences as one repeated sentence was the old count's commonest error on
 * Material for MkDocs). Not sentences: code blocks (a shared `import` line is no repeated fact,
 * fenced at any indentation, as in a list item), headings (labels, not facts), link reference
 * definitions (`[x]: https://…`, invisible when rendered). A sentence the docs repeat inside one
 * section (tabbed examples with the same placeholder text) is the page's, not the response's, and
 * counts once; so does a table's header row (column names are labels).
 */

const MIN_SENTENCE_CHARS = 30;

/** Fenced code blocks, at any indentation. */
const FENCED = /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))/gm;
/** Where a new paragraph starts: a blank line, a list item, a heading (a table is one paragraph). */
const PARAGRAPH_BREAK = /\n[ \t]*\n|\n(?=[ \t]*(?:[-*+][ \t]|\d+[.)][ \t]|#{1,6}[ \t]))/;
const NOT_PROSE = /^[ \t]*(?:#{1,6}[ \t]|\[[^\]\n]+\]:[ \t])/;

/** A table's rows, without its header (column names are labels, not facts). */
function rows(table: string): string[] {
  const lines = table.split('\n');
  return lines.filter((_, i) => !/^[ \t]*\|?[ \t]*:?-{3,}/.test(lines[i + 1] ?? ''));
}

function sentences(text: string): Set<string> {
  const paragraphs = text
    .replace(FENCED, '\n\n')
    .split(PARAGRAPH_BREAK)
    .filter((p) => !NOT_PROSE.test(p));
  const lines = paragraphs.flatMap((p) => (/^[ \t]*\|/.test(p) ? rows(p) : [p.replace(/\s*\n\s*/g, ' ')]));
  return new Set(
    lines
      .flatMap((line) => line.split(/(?<=[.!?])\s+/))
      .map((s) => answerText(s).trim())
      .filter((s) => s.length >= MIN_SENTENCE_CHARS && /[a-z]{3}/.test(s)),
  );
}

/** How many distinct sentences occur in more than one of `sections` (every shown section's text, across results). */
export function repeatedSentences(sections: readonly string[]): number {
  const seen = new Map<string, number>();
  for (const text of sections) for (const s of sentences(text)) seen.set(s, (seen.get(s) ?? 0) + 1);
  let repeated = 0;
  for (const count of seen.values()) if (count > 1) repeated++;
  return repeated;
}
