/**
 * Template macros, shortcodes and include directives written inline, and what a reader sees in
 * their place. Each is a pattern and a rendering; edits.ts applies them outside code.
 *
 * - KumaScript (MDN) `{{Name("arg", …)}}`: a macro that names a thing (a header, an element, an
 *   API, a glossary term) becomes that name, as MDN links it; every other one (`{{Compat}}`,
 *   `{{Specifications}}`, sidebars, badges, live samples) is boilerplate and goes.
 * - Hugo shortcodes `{{< … >}}`, `{{% … %}}`: the tags go, parameters with them; a paired
 *   shortcode's inner text stays where it is (a note's text is content).
 * - Includes `{* ../docs_src/x.py hl[2] *}`, `{!file.md!}`: the built page has the file there, the
 *   source only its name; neither is words a reader sees.
 * - Attribute blocks `{#id}`, `{ #id .class }`, `{: .class }`, `{ width="300" }` (attr_list,
 *   kramdown, Pandoc, VitePress), MkDocs Material icons `:material-…:`, MDX comments `{/* … *\/}`,
 *   PyMdown keys `++ctrl+c++` (the keys' names) and insertions `^^text^^` (the text).
 */

export interface InlinePattern {
  pattern: RegExp;
  render: (match: RegExpExecArray) => string;
  /** The spaces before a match go with it (`# First Steps { #first-steps }`). */
  spacesBefore?: boolean;
}

/** Naming macros, by lower-cased name: what each shows for its arguments. */
const NAMING: Record<string, (args: string[]) => string | undefined> = {
  httpheader: (a) => code(a[0]),
  httpmethod: (a) => code(a[0]),
  httpstatus: (a) => a[0],
  htmlelement: (a) => code(a[0] && `<${a[0]}>`),
  svgelement: (a) => code(a[0] && `<${a[0]}>`),
  mathmlelement: (a) => code(a[0] && `<${a[0]}>`),
  htmlattrxref: (a) => code(a[0]),
  svgattr: (a) => code(a[0]),
  domxref: (a) => code(a[1] ?? a[0]),
  jsxref: (a) => code(a[1] ?? a[0]),
  cssxref: (a) => code(a[1] ?? a[0]),
  csp: (a) => code(a[0]),
  event: (a) => code(a[0]),
  webextapiref: (a) => code(a[1] ?? a[0]),
  glossary: (a) => a[1] ?? a[0],
  rfc: (a) => a[0] && `RFC ${a[0]}`,
};

function code(name: string | undefined): string | undefined {
  if (name === undefined || name === '') return undefined;
  return name.includes('`') ? name : `\`${name}\``;
}

/** A macro's arguments: quoted strings or bare words, separated by commas. */
function macroArguments(list: string): string[] {
  return [...list.matchAll(/"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^,\s][^,]*)/g)].map((m) =>
    (m[1] ?? m[2] ?? m[3] ?? '').trim(),
  );
}

// Repetitions are bounded so that an unclosed macro costs a bounded scan, not one to the end of the line.
const KUMASCRIPT =
  /\{\{[ \t]*([A-Za-z][\w-]{0,80})[ \t]*(?:\(((?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|[^)"'\n]){0,300})\))?[ \t]*\}\}/g;

const ATTRIBUTE = String.raw`(?:[#.][\w:-]{1,100}|[\w:-]{1,100}=(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|[^\s"'{}]{1,300})|[A-Za-z][\w-]{0,100})`;
/** `{#id}`, `{ #id .class }`, `{: .class }`, `{ width="300" loading=lazy }`, `{ data-preview }`. */
const ATTRIBUTES = new RegExp(String.raw`\{:?[ \t]*${ATTRIBUTE}(?:[ \t]+${ATTRIBUTE}){0,30}[ \t]*\}`, 'g');

/** A bare word in braces (`{ foo }`) is text; an attribute block has an id, a class, a key=value or a hyphenated key. */
function isAttributeBlock(block: string): boolean {
  return /[#.=]|[A-Za-z]\w*-/.test(block.replace(/^\{:?/, ''));
}

export const INLINE_PATTERNS: InlinePattern[] = [
  { pattern: /\{\{[<%][\s\S]{0,2000}?[>%]\}\}/g, render: () => '' },
  { pattern: KUMASCRIPT, render: (m) => NAMING[m[1]!.toLowerCase()]?.(macroArguments(m[2] ?? '')) ?? '' },
  { pattern: /\{\*[\s\S]{0,500}?\*\}/g, render: () => '' },
  { pattern: /\{![\s\S]{0,500}?!\}/g, render: () => '' },
  { pattern: /\{\/\*[\s\S]{0,2000}?\*\/\}/g, render: () => '' },
  // An icon's own attribute block (`:material-scale-balance:{ .lg .middle }`) goes with it.
  {
    pattern: /:(?:material|octicons|fontawesome|simple|twemoji)-[\w-]{1,100}:(?:\{[^{}\n]{0,200}\})?/g,
    render: () => '',
  },
  { pattern: ATTRIBUTES, render: (m) => (isAttributeBlock(m[0]) ? '' : m[0]), spacesBefore: true },
  // PyMdown keys `++ctrl+alt+del++` and insertions `^^text^^`.
  { pattern: /\+\+([\w-]+(?:\+[\w-]+)*)\+\+/g, render: (m) => m[1]! },
  { pattern: /\^\^([^^\n]+)\^\^/g, render: (m) => m[1]! },
];
