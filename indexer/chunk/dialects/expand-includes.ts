import { findIncludes, type IncludeDirective } from './include-directives.js';
import { lineRange, mdbookPart } from './mdbook-include.js';

/**
 * A page with the files it includes put in their place, as its readers see it: the included
 * file's front matter goes, its headings become the page's at the include point (no generator
 * this handles shifts their levels), and a directive on a line of its own indents every
 * included line as it is indented (a Hugo include inside a definition list, a snippet inside an
 * admonition). Included files' own includes are expanded too.
 *
 * Pure: files come from `resolve`, which says where a directive leads (or that it leads nowhere
 * that may be read). Guards: a file already being included higher up (a cycle), includes nested
 * deeper than `maxDepth`, and text past `maxChars` in all become nothing, each told as a problem.
 * `maxChars` counts what is produced: the indentation added to every included line too (a
 * 1 MB fragment included 100 spaces deep made a 117-byte page 52 MB, issue 40).
 */

export interface IncludedFile {
  /** Which file it is, as the caller names it (its path in the corpus): what a digest records. */
  id: string;
  text: string;
}

export type ResolveInclude<F extends IncludedFile = IncludedFile> = (
  directive: IncludeDirective,
  from: IncludedFile,
) => F | undefined;

export interface IncludeProblem {
  kind: 'missing' | 'cycle' | 'too-deep' | 'too-large';
  /** The including file's id, and the target as written. */
  from: string;
  target: string;
}

export interface ExpandedPage<F extends IncludedFile = IncludedFile> {
  text: string;
  /** Every file inlined, in order of first inclusion (each once). */
  included: F[];
  problems: IncludeProblem[];
}

export interface IncludeLimits {
  maxDepth: number;
  /** Included text a page may take in all, in characters. */
  maxChars: number;
}

export const DEFAULT_INCLUDE_DEPTH = 8;

const FRONTMATTER = /^\uFEFF?(---|\+\+\+)[ \t]*\r?\n(?:[\s\S]*?\r?\n)??\1[ \t]*(?:\r?\n|$)/;

interface Walk<F extends IncludedFile> {
  resolve: ResolveInclude<F>;
  limits: IncludeLimits;
  included: Map<string, F>;
  problems: IncludeProblem[];
  chars: number;
}

export function expandIncludes<F extends IncludedFile>(
  page: IncludedFile,
  resolve: ResolveInclude<F>,
  limits: IncludeLimits,
): ExpandedPage<F> {
  const walk: Walk<F> = { resolve, limits, included: new Map(), problems: [], chars: 0 };
  const text = expand(page, page.text, [page.id], walk);
  return { text, included: [...walk.included.values()], problems: walk.problems };
}

function expand<F extends IncludedFile>(
  file: IncludedFile,
  text: string,
  stack: readonly string[],
  walk: Walk<F>,
): string {
  const directives = findIncludes(text);
  if (directives.length === 0) return text;
  let out = '';
  let at = 0;
  for (const directive of directives) {
    if (directive.start < at) continue;
    out += text.slice(at, directive.start);
    at = directive.end;
    const body = inlined(file, directive, stack, walk);
    const lineEnd = /\r?\n$/.exec(text.slice(directive.start, directive.end))?.[0] ?? '';
    if (directive.indent === undefined) out += body;
    else if (withinLimit(body, directive.indent, walk)) out += indented(body, directive.indent, lineEnd);
    else walk.problems.push({ kind: 'too-large', from: file.id, target: directive.target });
  }
  return out + text.slice(at);
}

/** The included file's text as the page shows it, or '' (a problem told). */
function inlined<F extends IncludedFile>(
  from: IncludedFile,
  directive: IncludeDirective,
  stack: readonly string[],
  walk: Walk<F>,
): string {
  const problem = (kind: IncludeProblem['kind']) => {
    walk.problems.push({ kind, from: from.id, target: directive.target });
    return '';
  };
  if (stack.length > walk.limits.maxDepth) return problem('too-deep');
  const file = walk.resolve(directive, from);
  if (file === undefined) return problem('missing');
  if (stack.includes(file.id)) return problem('cycle');
  const part = selected(file.text.replace(FRONTMATTER, ''), directive);
  if (walk.chars + part.length > walk.limits.maxChars) return problem('too-large');
  walk.chars += part.length;
  if (!walk.included.has(file.id)) walk.included.set(file.id, file);
  return expand(file, part, [...stack, file.id], walk);
}

/** The lines or the region a directive names, else the whole text. */
function selected(text: string, directive: IncludeDirective): string {
  if (directive.kind === 'mdbook') return mdbookPart(text, directive);
  const part = directive.region === undefined ? text : region(text, directive.region);
  return directive.lines === undefined ? part : lineRange(part, directive.lines).join('');
}

/** VitePress regions: `<!-- #region name -->` … `<!-- #endregion name -->` (or `// #region`, `#region`). */
function region(text: string, name: string): string {
  const lines = text.split(/(?<=\n)/);
  const marker = (kind: string) => new RegExp(`^\\s*(?:<!--|//|#|/\\*)?\\s*#?${kind}\\s+${name}\\b`);
  const start = lines.findIndex((l) => marker('region').test(l));
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && marker('endregion').test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end).join('');
}

/** Whether indenting `body` keeps the page's included text within the limit (counting it if so), before the text is made. */
function withinLimit<F extends IncludedFile>(body: string, indent: string, walk: Walk<F>): boolean {
  if (indent === '' || body === '') return true;
  const lines = body.match(LINE_START)?.length ?? 0;
  const added = lines * indent.length;
  if (walk.chars + added > walk.limits.maxChars) return false;
  walk.chars += added;
  return true;
}

/** Where indented() puts the indentation: each line with text (`^` in `m` mode also follows \r, U+2028, U+2029). */
const LINE_START = /^(?=[^\r\n])/gm;

function indented(body: string, indent: string, lineEnd: string): string {
  if (body === '') return '';
  const text = indent === '' ? body : body.replace(LINE_START, indent);
  return /\n$/.test(text) ? text : text + (lineEnd || '\n');
}
