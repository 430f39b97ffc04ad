/**
 * The openers and closers of the block containers site generators add to Markdown, recognised on
 * one line each (blocks.ts walks the lines), and the title a reader sees on each:
 *
 * - MkDocs admonitions `!!! type "Title"`, collapsible `??? type` / `???+ type`, and Material
 *   tabs `=== "Label"`: the body is the following lines indented by four columns;
 * - PyMdown blocks `/// type | Title` … `///`;
 * - colon fences `:::type Title` / `:::type[Title]` … `:::` (Docusaurus, VitePress, MyST `:::{note}`);
 * - MyST directives in backtick fences ```` ```{note} ```` … ```` ``` ````;
 * - GitHub and Obsidian alerts `> [!NOTE]`.
 *
 * A container with no title of its own shows its type when it is a callout (`!!! tip` reads
 * "Tip"); a structural one (a caption, a code group, a tab set) shows nothing.
 */

/** Callout types that show their own name as the title when none is given. */
const CALLOUTS = new Set(
  (
    'note abstract summary tldr info todo tip hint important success check done question help faq warning ' +
    'caution attention failure fail missing danger error bug example quote cite seealso admonition details ' +
    'settings new'
  ).split(' '),
);

/** MyST directives whose body is code, kept as a fenced block in the argument's language. */
export const MYST_CODE = new Set(['code', 'code-block', 'code-cell', 'sourcecode']);
/** MyST directives that pull other files in or list pages: dropped with their body. */
export const MYST_DROPPED = new Set(['include', 'literalinclude', 'toctree', 'image', 'raw', 'contents']);

export type Opener =
  /** The body is the lines indented four columns deeper than the opener. */
  | { kind: 'indented'; title: string }
  /** The body runs to a closing line. */
  | { kind: 'delimited'; title: string; closes: (line: string) => boolean; tabs?: boolean };

/** `Title` shown as a paragraph of its own: bold, as callout and tab titles render. */
export function titleLine(title: string): string {
  return title === '' ? '' : `**${title}**`;
}

function defaultTitle(type: string): string {
  const t = type.toLowerCase();
  return CALLOUTS.has(t) ? t[0]!.toUpperCase() + t.slice(1) : '';
}

const ADMONITION = /^(?:!!!|\?\?\?\+?)[ \t]+([\w-]+)(?:[ \t]+[\w-]+)*(?:[ \t]+"(.*)")?[ \t]*$/;
const MKDOCS_TAB = /^===[+!]?[ \t]+"(.*)"[ \t]*$/;
const PYMDOWN = /^\/{3}[ \t]*([\w-]+)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$/;
const PYMDOWN_CLOSE = /^\/{3}[ \t]*$/;
const COLON = /^(:{3,})[ \t]*\{?([\w-]+)\}?(?:\[(.*)\])?[ \t]*(.*?)[ \t]*$/;
const COLON_CLOSE = /^(:{3,})[ \t]*$/;
const STRUCTURAL = new Set(['tabs', 'code-group', 'v-pre', 'raw']);
/** A tab label line inside a VitePress `::: tabs` container (vitepress-plugin-tabs). */
export const TAB_LABEL = /^={2,3}[ \t]+(\S.*?)[ \t]*$/;

/** The container a line (its indentation already removed) opens, if any. */
export function openerOf(line: string): Opener | undefined {
  let m = ADMONITION.exec(line);
  if (m) return { kind: 'indented', title: m[2] ?? defaultTitle(m[1]!) };
  m = MKDOCS_TAB.exec(line);
  if (m) return { kind: 'indented', title: m[1]! };
  m = PYMDOWN.exec(line);
  if (m) return { kind: 'delimited', title: m[2] || defaultTitle(m[1]!), closes: (l) => PYMDOWN_CLOSE.test(l) };
  m = COLON.exec(line);
  if (m) {
    const colons = m[1]!.length;
    // A tab set or code group has no title: the rest of its line is options (`::: tabs key:provider`).
    const title = m[3] || (STRUCTURAL.has(m[2]!) ? '' : m[4] || defaultTitle(m[2]!));
    const closes = (l: string) => (COLON_CLOSE.exec(l)?.[1]?.length ?? 0) >= colons;
    return { kind: 'delimited', title, closes, tabs: m[2] === 'tabs' };
  }
  return undefined;
}

/** A MyST directive fence line: ```` ```{name} argument ````. */
export function mystDirective(line: string): { fence: string; name: string; argument: string } | undefined {
  const m = /^(`{3,}|~{3,})[ \t]*\{([\w:-]+)\}[ \t]*(.*?)[ \t]*$/.exec(line);
  return m ? { fence: m[1]!, name: m[2]!, argument: m[3]! } : undefined;
}

export function mystTitle(name: string, argument: string): string {
  return argument !== '' && (name === 'admonition' || CALLOUTS.has(name) || name === 'dropdown')
    ? argument
    : defaultTitle(name);
}

/** A fence line closes a block opened by `fence` when it repeats its character at least as often. */
export function closesFence(line: string, fence: string): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1]![0] === fence[0] && m[1]!.length >= fence.length;
}

/** An opening code fence line: its marker. */
export function fenceOf(line: string): string | undefined {
  const m = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
  // A backtick fence's info string may not contain a backtick (then it is inline code).
  if (!m || (m[1]![0] === '`' && m[2]!.includes('`'))) return undefined;
  return m[1];
}

/** A GitHub or Obsidian alert's first line: `> [!NOTE]`, `> [!tip]- Custom title`. */
export function alertTitle(line: string): { prefix: string; title: string } | undefined {
  const m = /^([ \t]*>[ \t]?)\[!(\w+)\][+-]?[ \t]*(.*?)[ \t]*$/.exec(line);
  if (!m) return undefined;
  const type = m[2]!.toLowerCase();
  return { prefix: m[1]!, title: m[3] || type[0]!.toUpperCase() + type.slice(1) };
}
