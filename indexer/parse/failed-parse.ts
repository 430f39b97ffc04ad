import { basename } from 'node:path';
import type { ChunkOutcome } from './bounded-chunk.js';
import { plainSections, type ChunkedSection, type ChunkOptions } from '../chunk/chunk.js';
import { escapeName } from '../load/corpus-walk.js';
import { FORMATS, type FormatName, formatOf, withoutExtension } from '../formats/supported.js';
import type { CorpusDocument } from '../load/load-corpus.js';
import type { ParseFailures } from './parse-failures.js';
import type { SkipLog } from '../load/skipped-files.js';

/**
 * What a build makes of a file it could not parse, whichever way the parse failed. A Markdown
 * (or .txt) file's source is text a reader searches: it is indexed as plain text, whether its
 * parse overflowed the parser's stack, ran out of its heap, ran over the CPU time limit, or ran
 * over it in an earlier build (remembered, parse-failures.ts). One outcome for every failure, so
 * the index does not depend on which bound a page meets first: 20,000 nested `>` overflowed the
 * stack or reached a 1 s limit first depending on the machine, and were indexed as plain text
 * or left out (issue 40). Another format's source (HTML tags, notebook JSON, AsciiDoc markup) is
 * not such text: the file is left out, again whichever way its parse failed.
 *
 * The plain-text path is bounded on its own: it splits lines and packs them (split-section.ts,
 * linear in the source), and the source is at most the per-file size limit with its includes
 * (SVC_DOCS_MAX_FILE_BYTES, pages-as-seen.ts).
 */

export type Chunked = { title: string; sections: ChunkedSection[] };

/**
 * What a build does with a file an earlier build's parse ran over the limit on: indexes it as
 * plain text or leaves it out, unparsed; or, the limit raised since, parses it again, never
 * reusing the sections a build at the lower limit gave it.
 */
export type Remembered = 'plain' | 'left-out' | 'parse-again';

/** The formats whose source is indexed as plain text when it cannot be parsed. */
const PLAIN_WHEN_FAILED: ReadonlySet<FormatName> = new Set(['markdown', 'text']);

function plainWhenFailed(doc: CorpusDocument): boolean {
  return PLAIN_WHEN_FAILED.has(formatOf(doc.path) ?? 'markdown');
}

export function asPlainText(doc: CorpusDocument, options: ChunkOptions): Chunked {
  return { title: withoutExtension(basename(doc.path)), sections: plainSections(doc.source, options) };
}

/** `took over 2 s of CPU time`, then the setting: ` (SVC_DOCS_…)` in a skip line, `, SVC_DOCS_…` inside a plain-text line's parentheses. */
function overLimit(ms: number, inParentheses = false): string {
  const setting = 'SVC_DOCS_PARSE_TIMEOUT_SECONDS';
  return `took over ${ms / 1000} s of CPU time${inParentheses ? `, ${setting}` : ` (${setting})`}`;
}

/** The line for a file indexed as plain text, `why` its parse failed. */
function plainTextLine(doc: CorpusDocument, why: string): string {
  const label = FORMATS[formatOf(doc.path) ?? 'markdown'].label;
  return `warning: ${escapeName(`${doc.kb}/${doc.path}`)} could not be parsed as ${label} (${why}); indexed as plain text`;
}

/** A parsed document's sections; a failed one's as plain text or undefined (left out), told in one line. */
export function fromOutcome(
  outcome: ChunkOutcome,
  timeoutMs: number,
  doc: CorpusDocument,
  options: ChunkOptions,
  skips: SkipLog,
): Chunked | undefined {
  if (outcome.ok)
    return { title: outcome.doc.title ?? withoutExtension(basename(doc.path)), sections: outcome.doc.sections };
  if (plainWhenFailed(doc)) {
    const why = outcome.reason === 'timeout' ? `parsing it ${overLimit(timeoutMs, true)}` : (outcome.error ?? 'error');
    skips.note(plainTextLine(doc, why));
    return asPlainText(doc, options);
  }
  const name = escapeName(`${doc.kb}/${doc.path}`);
  if (outcome.reason === 'timeout') {
    skips.skip(name, 'parse-timeout', `parsing it ${overLimit(timeoutMs)}; the rest of the corpus is indexed`);
    return undefined;
  }
  const label = FORMATS[formatOf(doc.path) ?? 'markdown'].label;
  const why = outcome.error ?? 'error';
  skips.skip(name, 'parse-failure', `it could not be read as ${label} (${why}); the rest of the corpus is indexed`);
  return undefined;
}

/**
 * The documents an earlier build's parse of the same content ran over the limit on, each with
 * what this build does with it (Remembered). Those it does not parse (the limit is not above the
 * one their parse ran over) are named in one line each.
 */
export function rememberedFailures(
  docs: readonly CorpusDocument[],
  limit: { timeoutMs: number; failures?: ParseFailures },
  skips: SkipLog,
): Map<CorpusDocument, Remembered> {
  const remembered = new Map<CorpusDocument, Remembered>();
  for (const doc of docs) {
    const ranOverMs = limit.failures?.ranOver(doc.hash, 0);
    if (ranOverMs === undefined) continue;
    if (ranOverMs < limit.timeoutMs) {
      remembered.set(doc, 'parse-again');
      continue;
    }
    const why = (inParentheses: boolean) =>
      `an earlier build's parse of this content ${overLimit(ranOverMs, inParentheses)}; it is parsed again once it changes or the limit is raised`;
    if (plainWhenFailed(doc)) {
      skips.note(plainTextLine(doc, why(true)));
      remembered.set(doc, 'plain');
      continue;
    }
    remembered.set(doc, 'left-out');
    skips.skip(escapeName(`${doc.kb}/${doc.path}`), 'parse-remembered', why(false), 'parse limit, remembered');
  }
  return remembered;
}
