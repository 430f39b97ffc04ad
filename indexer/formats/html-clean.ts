import type { Element, ElementContent, Root } from 'hast';

/**
 * What no reader of HTML sees as words, taken out of a hast tree before it becomes Markdown:
 * scripts, styles, comments, form controls and buttons ("Copy"), heading anchors ("¶", "#"),
 * code blocks' line numbers; and each code block's language, wherever its generator wrote it,
 * moved to where hast-util-to-mdast reads it (`<pre><code class="language-x">`). Pure: a new
 * tree is returned, the input is not changed.
 *
 * `drop` takes out more (a page's navigation and footers: html-page.ts).
 */

type Parent = Root | Element;

/** Elements whose content is never text a reader sees in place. */
const NEVER_TEXT = new Set(['script', 'style', 'noscript', 'template', 'button', 'select', 'textarea', 'dialog']);

/** Line numbers inside a code block (Pygments, Chroma). */
const LINE_NUMBER_CLASSES = ['linenos', 'lineno', 'linenodiv', 'ln', 'lnt'];

/** A code block laid out as a table, line numbers in one cell and code in the last (Pygments, Chroma). */
const CODE_TABLE_CLASSES = ['highlighttable', 'lntable'];

/** Class prefixes that name a code block's language: `language-go` (Prism, Material, Docusaurus), `lang-go`, `highlight-go` (Sphinx). */
const LANGUAGE_CLASS = /^(?:language|lang|highlight)-([\w#+.-]+)$/;
/** Sphinx's and Pygments' placeholders for "no language given". */
const NO_LANGUAGE = new Set(['default', 'none', 'text', 'plaintext']);

export function classesOf(element: Element): string[] {
  const value = element.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

export function hasClass(element: Element, names: readonly string[]): boolean {
  return classesOf(element).some((c) => names.includes(c));
}

interface Walk {
  drop: (element: Element) => boolean;
  /** The language named by the nearest enclosing element that names one. */
  language: string | undefined;
  inCode: boolean;
}

/** The tree without what is never content (and what `drop` says), code blocks' languages made explicit. */
export function cleanHast<T extends Parent>(tree: T, drop: (element: Element) => boolean = () => false): T {
  return { ...tree, children: cleanChildren(tree.children, { drop, language: undefined, inCode: false }) };
}

function cleanChildren(children: readonly ElementContent[] | Root['children'], walk: Walk): ElementContent[] {
  return children.flatMap((child): ElementContent[] => {
    if (child.type === 'text') return [child];
    if (child.type !== 'element') return [];
    return cleanElement(child, walk);
  });
}

function cleanElement(element: Element, walk: Walk): ElementContent[] {
  if (isNoise(element, walk) || walk.drop(element)) return [];
  if (CODE_TABLE_CLASSES.some((c) => hasClass(element, [c]))) return cleanChildren(codeCell(element), walk);
  const inner: Walk = { ...walk, language: languageOf(element) ?? walk.language };
  if (element.tagName === 'pre') return [codeBlock(element, { ...inner, inCode: true })];
  return [{ ...element, children: cleanChildren(element.children, inner) }];
}

function isNoise(element: Element, walk: Walk): boolean {
  const { tagName, properties } = element;
  // Not `hidden`: a tab set hides every panel but the first until a reader clicks its tab.
  if (NEVER_TEXT.has(tagName)) return true;
  if (tagName === 'input') return properties.type !== 'checkbox';
  if (walk.inCode && hasClass(element, LINE_NUMBER_CLASSES)) return true;
  return tagName === 'a' && (isSymbolAnchor(element) || isEmptyLink(element));
}

/**
 * `<a id="id-1.9.3"></a>`, `<a href="x.html"></a>`: a link target or a link with nothing to read
 * (DocBook's index terms, Javadoc's anchors). Markdown would show it as `[]()`.
 */
function isEmptyLink(element: Element): boolean {
  return textOf(element).trim() === '' && !hasElement(element, (e) => e.tagName === 'img' || e.tagName === 'svg');
}

function hasElement(node: Element, test: (element: Element) => boolean): boolean {
  return node.children.some((c) => c.type === 'element' && (test(c) || hasElement(c, test)));
}

/**
 * `<a href="#install">¶</a>`: an anchor beside a heading or definition whose text is a symbol,
 * not words (Sphinx's and MkDocs' ¶, Docusaurus' zero-width space, GitHub's icon, Hugo's #).
 */
function isSymbolAnchor(element: Element): boolean {
  const href = element.properties.href;
  if (typeof href !== 'string' || !href.startsWith('#')) return false;
  return !/[\p{L}\p{N}]/u.test(textOf(element));
}

export function textOf(node: Parent | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' && node.type !== 'root') return '';
  return node.children.map((child) => textOf(child as ElementContent)).join('');
}

/** The last cell of a line-numbered code table (the code; the cells before it hold numbers). */
function codeCell(table: Element): ElementContent[] {
  const cells: Element[] = [];
  const collect = (node: Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'td') cells.push(child);
      else collect(child);
    }
  };
  collect(table);
  return cells.at(-1)?.children ?? [];
}

/** `<pre>` as `<pre><code class="language-x">…</code></pre>`, the language taken from wherever it was written. */
function codeBlock(pre: Element, walk: Walk): Element {
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const language = (code && languageOf(code)) ?? walk.language;
  const className = language === undefined ? [] : [`language-${language}`];
  const codeElement: Element = {
    type: 'element',
    tagName: 'code',
    properties: { className },
    children: cleanChildren(pre.children, walk),
  };
  return { ...pre, children: [codeElement] };
}

/** The language an element names for the code inside it: a class, Hugo's `data-lang`, a Confluence/SyntaxHighlighter brush. */
function languageOf(element: Element): string | undefined {
  const { dataLang, dataSyntaxhighlighterParams } = element.properties;
  const named =
    classesOf(element)
      .map((c) => LANGUAGE_CLASS.exec(c)?.[1])
      .find((l) => l !== undefined) ??
    (typeof dataLang === 'string' ? dataLang : undefined) ??
    brushOf(dataSyntaxhighlighterParams) ??
    brushOf(classesOf(element).join(' '));
  const language = named?.trim().toLowerCase();
  return language === undefined || language === '' || NO_LANGUAGE.has(language) ? undefined : language;
}

function brushOf(value: unknown): string | undefined {
  return typeof value === 'string' ? /\bbrush:\s*([\w#+.-]+)/.exec(value)?.[1] : undefined;
}
