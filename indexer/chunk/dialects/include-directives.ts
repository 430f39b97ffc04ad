import { closesFence } from './containers.js';

/**
 * Where a page pulls in another file, as its site generator writes it, found outside fenced code
 * (a code example that shows the syntax stays as written). Pure: the page's text in, directives out.
 *
 * - Hugo's `include` shortcode, `{{% include "/_common/x.md" %}}` or `{{< include … >}}`;
 * - PyMdown snippets (MkDocs): `--8<-- "file.md"` on a line of its own, optionally with a line
 *   range `file.md:3:10`, and the block form (`--8<--`, one file a line, `--8<--`);
 * - VitePress `<!--@include: ./part.md-->`, with an optional region `#name` and line range `{3,10}`;
 * - Docusaurus MDX partials: `import Part from './_part.mdx'`, then `<Part />` on a line of its own;
 * - mdBook `{{#include file.rs}}` and `{{#rustdoc_include file.rs}}`, with an anchor `:name` or a
 *   line range `:3`, `:3:`, `::10`, `:3:10`. mdBook's preprocessor runs on the raw text, so these
 *   are found inside fenced code too (that is where the book's listings are pulled in); a
 *   backslash before them (`\{{#include …}}`) keeps one as written.
 */

export type IncludeKind = 'hugo' | 'snippet' | 'vitepress' | 'mdx' | 'mdbook';

export interface IncludeDirective {
  kind: IncludeKind;
  /** The path as written (without a range or region). */
  target: string;
  /** What the directive covers in the page's text: whole lines when it stands alone. */
  start: number;
  end: number;
  /** The directive's indentation when it stands on a line of its own: each included line gets it. */
  indent?: string;
  /** Lines to keep, 1-based and inclusive (an open end is undefined). */
  lines?: { from?: number; to?: number };
  /** A VitePress region name, or an mdBook anchor name. */
  region?: string;
}

const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const HUGO = /\{\{[<%][ \t]*include[ \t]+(?:"([^"\n]{1,500})"|'([^'\n]{1,500})'|([^\s"'>%]{1,500}))[ \t]*[>%]\}\}/g;
const SNIPPET_LINE = /^([ \t]*)-{2,}8<-{2,}[ \t]+(?:"([^"\n]{1,500})"|'([^'\n]{1,500})')[ \t]*$/;
const SNIPPET_BLOCK = /^([ \t]*)-{2,}8<-{2,}[ \t]*$/;
const VITEPRESS =
  /<!--[ \t]*@include:[ \t]*([^\s{#][^\n{#]{0,500}?)(?:#([\w-]{1,100}))?(?:\{(\d*),?(\d*)\})?[ \t]*-->/g;
const MDX_IMPORT = /^import[ \t]+([A-Z][\w$]{0,100})[ \t]+from[ \t]+['"]([^'"\n]{1,500}\.mdx?)['"][ \t]*;?[ \t]*$/;
const MDBOOK = /(\\?)\{\{#(?:include|rustdoc_include)[ \t]+([^\s:}]{1,500})(?::([^\s}]{0,200}))?[ \t]*\}\}/g;
const MDX_USE = /^([ \t]*)<([A-Z][\w$]{0,100})(?:[ \t][^<>]{0,500})?[ \t]*(?:\/>|>[ \t]*<\/\2>)[ \t]*$/;

/** Line `text` from offset `start` of the page, without its line end. */
interface Line {
  text: string;
  start: number;
  end: number;
}

function linesOf(source: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of source.split(/(?<=\n)/)) {
    const text = raw.replace(/\r?\n$/, '');
    out.push({ text, start, end: start + raw.length });
    start += raw.length;
  }
  return out;
}

/** The lines outside fenced code blocks. */
function proseLines(source: string): Line[] {
  const out: Line[] = [];
  let fence: string | undefined;
  for (const line of linesOf(source)) {
    const marker = FENCE.exec(line.text)?.[1];
    if (fence !== undefined) {
      if (closesFence(line.text, fence)) fence = undefined;
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    out.push(line);
  }
  return out;
}

/** The page's include directives, in order. */
export function findIncludes(source: string): IncludeDirective[] {
  // Most pages include nothing: one scan says so before the page is split into lines.
  if (!/\{\{[<%][ \t]*include[ \t]|-8<-|@include:|^import[ \t]|\{\{#(?:rustdoc_)?include[ \t]/m.test(source)) return [];
  const lines = proseLines(source);
  const found: IncludeDirective[] = mdbookDirectives(source);
  const imports = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = SNIPPET_BLOCK.exec(line.text);
    if (block) {
      i = snippetBlock(lines, i, block[1]!, found);
      continue;
    }
    const snippet = SNIPPET_LINE.exec(line.text);
    if (snippet) {
      found.push(snippetDirective(snippet[2] ?? snippet[3]!, line, snippet[1]!));
      continue;
    }
    const imported = MDX_IMPORT.exec(line.text);
    if (imported) imports.set(imported[1]!, imported[2]!);
    const used = MDX_USE.exec(line.text);
    const partial = used ? imports.get(used[2]!) : undefined;
    if (used && partial !== undefined) {
      found.push({ kind: 'mdx', target: partial, start: line.start, end: line.end, indent: used[1]! });
      continue;
    }
    inlineDirectives(line, found);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The block form: each line up to the closing marker (or a blank line) names a file; `;` escapes one. */
function snippetBlock(lines: readonly Line[], at: number, indent: string, found: IncludeDirective[]): number {
  let end = at + 1;
  while (end < lines.length && lines[end]!.text.trim() !== '' && !SNIPPET_BLOCK.test(lines[end]!.text)) end++;
  const last = Math.min(end, lines.length - 1);
  const files = lines.slice(at + 1, end).filter((file) => !file.text.trim().startsWith(';'));
  // Together the directives cover the whole block, its markers and escaped lines with them.
  files.forEach((file, n) => {
    const start = n === 0 ? lines[at]!.start : file.start;
    const stop = n === files.length - 1 ? lines[last]!.end : files[n + 1]!.start;
    found.push({ ...snippetDirective(file.text.trim(), file, indent), start, end: stop });
  });
  return last;
}

function snippetDirective(written: string, line: Line, indent: string): IncludeDirective {
  const range = /^(.*?)(?::(\d*)(?::(\d*))?)?$/.exec(written)!;
  return {
    kind: 'snippet',
    target: range[1]!,
    start: line.start,
    end: line.end,
    indent,
    ...keptLines(Number(range[2]) || undefined, Number(range[3]) || undefined),
  };
}

/** Where match `m` sits in the page: its whole line, and the line's indentation, when it stands alone there. */
function span(line: Line, m: RegExpExecArray): Pick<IncludeDirective, 'start' | 'end' | 'indent'> {
  if (line.text.slice(0, m.index).trim() === '' && line.text.slice(m.index + m[0].length).trim() === '')
    return { start: line.start, end: line.end, indent: /^[ \t]*/.exec(line.text)![0] };
  return { start: line.start + m.index, end: line.start + m.index + m[0].length };
}

function inlineDirectives(line: Line, found: IncludeDirective[]): void {
  for (const m of line.text.matchAll(HUGO))
    found.push({ kind: 'hugo', target: m[1] ?? m[2] ?? m[3]!, ...span(line, m) });
  for (const m of line.text.matchAll(VITEPRESS)) {
    found.push({
      kind: 'vitepress',
      target: m[1]!.trim(),
      ...span(line, m),
      ...(m[2] !== undefined && { region: m[2] }),
      ...keptLines(Number(m[3]) || undefined, Number(m[4]) || undefined),
    });
  }
}

/** mdBook's includes, anywhere in the page (fenced code included). */
function mdbookDirectives(source: string): IncludeDirective[] {
  if (!source.includes('{{#')) return [];
  const found: IncludeDirective[] = [];
  for (const line of linesOf(source)) {
    for (const m of line.text.matchAll(MDBOOK)) {
      if (m[1] !== '\\') found.push({ kind: 'mdbook', target: m[2]!, ...span(line, m), ...mdbookSelector(m[3]) });
    }
  }
  return found;
}

/** `:name` is an anchor; `:3`, `:3:`, `::10` and `:3:10` are 1-based inclusive line ranges. */
function mdbookSelector(written: string | undefined): Pick<IncludeDirective, 'lines' | 'region'> {
  if (written === undefined || written === '') return {};
  const range = /^(\d*)(:(\d*))?$/.exec(written);
  if (range === null) return { region: written };
  const from = Number(range[1]) || undefined;
  // `:3` alone is that one line; `:3:` runs to the end.
  const to = range[2] === undefined ? from : Number(range[3]) || undefined;
  return keptLines(from, to);
}

/** `lines` from its two ends, unless both are open. */
function keptLines(from: number | undefined, to: number | undefined): Pick<IncludeDirective, 'lines'> {
  return from === undefined && to === undefined ? {} : { lines: { from, to } };
}
