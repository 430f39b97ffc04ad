/**
 * Whole lines that a site generator replaces when it builds the page, recognised outside code:
 * readers never see them as written. Each recogniser looks at the lines from `at` and says how
 * many it covers and what replaces them (nothing, or for Hugo's code shortcodes a fenced block).
 *
 * - PyMdown snippets: `--8<-- "file.md"`, and the block form (`--8<--`, file lines, `--8<--`);
 * - MDX `import` / `export` statements, over as many lines as their brackets run;
 * - Hugo's paired code shortcodes (`{{< code-toggle >}}`, `{{< highlight go >}}` … closing tag),
 *   whose content readers see as a code block.
 */

export interface LineDirective {
  /** How many lines from `at` it covers. */
  lines: number;
  /** What readers see instead, one entry per line (empty: nothing). */
  replacement: string[];
}

const SNIPPET = /^[ \t]*--8<--(?:[ \t]+\S.*)?[ \t]*\r?\n?$/;
const SNIPPET_BLOCK = /^[ \t]*--8<--[ \t]*\r?\n?$/;

function snippet(lines: readonly string[], at: number): LineDirective | undefined {
  const line = lines[at]!;
  if (!SNIPPET.test(line)) return undefined;
  if (!SNIPPET_BLOCK.test(line)) return { lines: 1, replacement: [] };
  // The block form lists one file per line up to a closing marker (a blank line ends it too).
  let end = at + 1;
  while (end < lines.length && lines[end]!.trim() !== '' && !SNIPPET_BLOCK.test(lines[end]!)) end++;
  return { lines: Math.min(end + 1, lines.length) - at, replacement: [] };
}

const IMPORT = /^import[ \t]+(?:[\w*{}\s,$]+[ \t]+from[ \t]+)?['"][^'"]+['"][ \t]*;?[ \t]*\r?\n?$/;
const IMPORT_START = /^import[ \t]+(?:type[ \t]+)?\{[^}]*$/;
const EXPORT = /^export[ \t]+(?:const|let|var|function|async|class|default|\{|\*)/;
/** The longest statement followed across lines: a runaway bracket must not swallow the page. */
const MAX_STATEMENT_LINES = 20;

function esm(lines: readonly string[], at: number): LineDirective | undefined {
  const line = lines[at]!;
  if (IMPORT.test(line)) return { lines: 1, replacement: [] };
  if (!IMPORT_START.test(line) && !EXPORT.test(line)) return undefined;
  let depth = 0;
  for (let i = at; i < lines.length && i < at + MAX_STATEMENT_LINES; i++) {
    depth += bracketBalance(lines[i]!);
    if (depth <= 0 && !/[=,([{][ \t]*\r?\n?$/.test(lines[i]!)) return { lines: i - at + 1, replacement: [] };
  }
  return undefined;
}

function bracketBalance(line: string): number {
  let depth = 0;
  for (const c of line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '')) {
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
  }
  return depth;
}

const HUGO_CODE_OPEN = /^[ \t]*\{\{[<%][ \t]*(code-toggle|highlight|code)\b(.*?)[>%]\}\}[ \t]*\r?\n?$/;
const MAX_HUGO_CODE_LINES = 2000;

function hugoCode(lines: readonly string[], at: number): LineDirective | undefined {
  const m = HUGO_CODE_OPEN.exec(lines[at]!);
  // A self-closing one (`{{< code-toggle config=server />}}`) shows generated text: it goes like any shortcode.
  if (!m || m[2]!.trimEnd().endsWith('/')) return undefined;
  const name = m[1]!;
  const end = closingLines(lines, name).find((line) => line > at);
  if (end === undefined || end >= at + MAX_HUGO_CODE_LINES) return undefined;
  const body = lines.slice(at + 1, end);
  const fence = body.some((l) => /^[ \t]*```/.test(l)) ? '````' : '```';
  const indent = /^[ \t]*/.exec(lines[at]!)![0];
  const open = `${indent}${fence}${hugoLanguage(name, m[2]!, body)}`;
  return {
    lines: end - at + 1,
    replacement: [open, ...body.map((l) => l.replace(/\r?\n$/, '')), `${indent}${fence}`],
  };
}

/** Each code shortcode's closing lines, found once per page: a page of openers must not rescan it for each. */
const closers = new WeakMap<readonly string[], Map<string, number[]>>();

function closingLines(lines: readonly string[], name: string): number[] {
  let byName = closers.get(lines);
  if (byName === undefined) closers.set(lines, (byName = new Map()));
  let found = byName.get(name);
  if (found === undefined) {
    const close = new RegExp(`^[ \\t]*\\{\\{[<%][ \\t]*/${name}[ \\t]*[>%]\\}\\}[ \\t]*\\r?\\n?$`);
    byName.set(name, (found = lines.flatMap((line, i) => (close.test(line) ? [i] : []))));
  }
  return found;
}

/** `highlight` names its language; `code-toggle` shows configuration, TOML unless it reads as YAML or JSON. */
function hugoLanguage(name: string, args: string, body: readonly string[]): string {
  if (name === 'highlight') return /^\s*"?([\w+-]+)/.exec(args)?.[1] ?? '';
  if (name === 'code') return /\blang="?([\w+-]+)/.exec(args)?.[1] ?? '';
  const first = body.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first.startsWith('{')) return 'json';
  return /^[\w.-]+:(\s|$)/.test(first) ? 'yaml' : 'toml';
}

const RECOGNISERS = [snippet, esm, hugoCode];

/** The directive starting at line `at` (its indentation already removed), if any. */
export function lineDirective(lines: readonly string[], at: number): LineDirective | undefined {
  for (const recognise of RECOGNISERS) {
    const found = recognise(lines, at);
    if (found) return found;
  }
  return undefined;
}
