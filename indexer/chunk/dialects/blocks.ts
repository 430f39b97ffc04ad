import {
  alertTitle,
  closesFence,
  fenceOf,
  MYST_CODE,
  MYST_DROPPED,
  mystDirective,
  mystTitle,
  openerOf,
  TAB_LABEL,
  titleLine,
} from './containers.js';
import { lineDirective } from './line-directives.js';

/**
 * The block-level pass over a page's lines, before it is parsed: containers become their title
 * (a bold line) and their body, indented bodies (MkDocs admonitions and tabs) lose the indentation
 * that CommonMark would read as a code block, closing lines go, and directive lines
 * (line-directives.ts) are replaced. Code fences are followed so that nothing inside code changes
 * but its indentation inside a container. Frontmatter is passed through as written.
 */

interface Region {
  kind: 'indented' | 'delimited';
  /** The opener's indentation, in columns. */
  indent: number;
  closes?: (line: string) => boolean;
  /** A VitePress tab set: its `== Label` lines are tab titles. */
  tabs?: boolean;
}

interface State {
  regions: Region[];
  /** The code fence the walk is inside: its marker and indentation. */
  fence?: string;
  fenceIndent?: number;
  /** A MyST directive being dropped with its body: the fence that closes it. */
  dropUntil?: string;
  /** Option lines may follow a PyMdown or MyST opener (`    type: warning`, `:class: tip`). */
  options?: RegExp;
  /** A title was just written or a closing line dropped: the next line must not continue what is before it. */
  separate?: boolean;
  out: string[];
}

/** Containers nested deeper than this are read as text: real pages nest a few, and each line looks at them all. */
const MAX_NESTING = 16;
const FRONTMATTER = /^(---|\+\+\+)[ \t]*\r?\n(?:[\s\S]*?\r?\n)??\1[ \t]*(?:\r?\n|$)/;
const PYMDOWN_OPTION = /^[ \t]{4,}[\w-]+:(?:[ \t]|$)/;
const MYST_OPTION = /^[ \t]*:[\w-]+:(?:[ \t]|$)/;

export function cleanBlocks(source: string): string {
  const front = FRONTMATTER.exec(source)?.[0] ?? '';
  const lines = source.slice(front.length).split(/(?<=\n)/);
  const state: State = { regions: [], out: [front] };
  for (let i = 0; i < lines.length; ) i = step(lines, i, state);
  return state.out.join('');
}

function step(lines: readonly string[], i: number, state: State): number {
  const raw = lines[i]!;
  const text = raw.replace(/\r?\n$/, '');
  const eol = raw.slice(text.length);
  if (state.dropUntil !== undefined) {
    if (closesFence(text, state.dropUntil)) state.dropUntil = undefined;
    return i + 1;
  }
  if (state.fence !== undefined) {
    const line = dedent(text, removal(state));
    if (state.options?.test(line)) return i + 1;
    state.options = undefined;
    // A closing fence is indented at most three columns more than its opener (CommonMark).
    if (closesFence(line, state.fence) && indentWidth(line) <= (state.fenceIndent ?? 0) + 3) state.fence = undefined;
    state.out.push(line + eol);
    return i + 1;
  }
  if (text.trim() === '') {
    // Blank lines as written (one inside an indented code block is part of the code), but one
    // after lines that were dropped or closed, where a blank line already stands.
    if (!state.separate || !endsBlank(state)) state.out.push(eol);
    state.separate = false;
    return i + 1;
  }
  closeIndented(state, indentWidth(text));
  const line = dedent(text, removal(state));
  if (state.options?.test(line)) return i + 1;
  state.options = undefined;
  if (state.separate && !endsBlank(state)) state.out.push('\n');
  state.separate = false;
  const top = state.regions.at(-1);
  if (top?.kind === 'delimited' && top.closes?.(line.trim())) {
    state.regions.pop();
    state.separate = true;
    return i + 1;
  }
  if (container(line, text, eol, state)) return i + 1;
  const directive = lineDirective(lines, i);
  if (directive) {
    for (const replaced of directive.replacement) state.out.push(`${replaced}\n`);
    state.separate = true;
    return i + directive.lines;
  }
  state.out.push(line + eol);
  return i + 1;
}

/** Handles a line that opens a container, a fence or an alert, or titles a tab. */
function container(line: string, text: string, eol: string, state: State): boolean {
  const indent = /^[ \t]*/.exec(line)![0];
  const bare = line.slice(indent.length);
  const alert = alertTitle(line);
  if (alert) {
    state.out.push(`${alert.prefix}${titleLine(alert.title)}${eol || '\n'}${alert.prefix.trimEnd()}${eol}`);
    return true;
  }
  const tab = state.regions.at(-1)?.tabs ? TAB_LABEL.exec(bare) : null;
  if (tab) return title(state, indent, tab[1]!, eol);
  const myst = mystDirective(bare);
  if (myst && state.regions.length < MAX_NESTING) return mystOpener(myst, indent, eol, state);
  const fence = fenceOf(line);
  if (fence !== undefined) {
    state.fence = fence;
    state.fenceIndent = indent.length;
    state.out.push(line + eol);
    return true;
  }
  // An admonition or tab may open a list item or a definition (`:   !!! note`): its body is indented from there.
  const item = /^[ \t]*(?::|[-*+]|\d{1,9}[.)])[ \t]+(?=!!!|\?\?\?|===)/.exec(line)?.[0];
  const opener = state.regions.length < MAX_NESTING ? openerOf(item ? line.slice(item.length) : bare) : undefined;
  if (!opener) return definition(line, text, eol, state);
  const region: Region = {
    kind: opener.kind,
    indent: item ? removal(state) + indentWidth(item.replace(/\S/g, ' ')) : indentWidth(text),
  };
  if (opener.kind === 'delimited') {
    region.closes = opener.closes;
    region.tabs = opener.tabs;
    state.options = PYMDOWN_OPTION;
  }
  // A definition's own continuation is indented too (CommonMark has no definition lists).
  if (item?.trimStart().startsWith(':') && opener.kind === 'indented')
    state.regions.push({ kind: 'indented', indent: indentWidth(text) });
  state.regions.push(region);
  return title(state, item ?? indent, opener.title, eol);
}

/**
 * A definition (`:   text`, Python-Markdown and PyMdown definition lists; CommonMark has none):
 * its continuation lines, indented four columns, would be read as code. They are unindented, and
 * the line is kept as written.
 */
function definition(line: string, text: string, eol: string, state: State): boolean {
  if (!/^[ \t]*:[ \t]+\S/.test(line) || state.regions.length >= MAX_NESTING) return false;
  state.regions.push({ kind: 'indented', indent: indentWidth(text) });
  state.out.push(line + eol);
  return true;
}

function mystOpener(myst: NonNullable<ReturnType<typeof mystDirective>>, indent: string, eol: string, state: State) {
  if (MYST_CODE.has(myst.name)) {
    state.fence = myst.fence;
    state.fenceIndent = indent.length;
    state.options = MYST_OPTION;
    state.out.push(`${indent}${myst.fence}${myst.argument.split(/\s/)[0]}${eol}`);
    return true;
  }
  if (MYST_DROPPED.has(myst.name)) {
    state.dropUntil = myst.fence;
    state.separate = true;
    return true;
  }
  state.regions.push({ kind: 'delimited', indent: indent.length, closes: (l) => closesFence(l, myst.fence) });
  state.options = MYST_OPTION;
  return title(state, indent, mystTitle(myst.name, myst.argument), eol);
}

/** A container's title as a paragraph of its own: blank lines around it keep it out of the text beside it. */
function title(state: State, indent: string, text: string, eol: string): boolean {
  const nl = eol || '\n';
  if (!endsBlank(state)) state.out.push(nl);
  state.separate = true;
  if (text.trim() !== '') state.out.push(`${indent}${titleLine(text.trim())}${nl}`);
  return true;
}

/** Whether what is written so far ends with a blank line (or is nothing but frontmatter). */
function endsBlank(state: State): boolean {
  const previous = state.out.at(-1) ?? '';
  return state.out.length === 1 || (previous.trim() === '' && previous.endsWith('\n'));
}

/** Indented regions end at the first line indented less than their body. */
function closeIndented(state: State, indent: number): void {
  for (let r = state.regions.length - 1; r >= 0; r--) {
    const region = state.regions[r]!;
    if (region.kind === 'indented' && indent < region.indent + 4) state.regions.length = r;
  }
}

function removal(state: State): number {
  return 4 * state.regions.filter((r) => r.kind === 'indented').length;
}

function indentWidth(line: string): number {
  let width = 0;
  for (const c of line) {
    if (c === ' ') width++;
    else if (c === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** `line` without its first `columns` columns of indentation (tabs expanded to stops of four). */
function dedent(line: string, columns: number): string {
  if (columns === 0) return line;
  let width = 0;
  let i = 0;
  while (i < line.length && width < columns && (line[i] === ' ' || line[i] === '\t')) {
    width += line[i] === '\t' ? 4 - (width % 4) : 1;
    i++;
  }
  return ' '.repeat(Math.max(0, width - columns)) + line.slice(i);
}
