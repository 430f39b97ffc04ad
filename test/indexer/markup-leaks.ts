import type { Nodes } from 'mdast';
import { parseMarkdown } from '../../indexer/chunk/chunk.js';

/**
 * Site-generator markup a reader never sees, found in chunked text: what the dialect scan
 * (corpus-markup.full.test.ts) and its before/after count look for. Code (fenced or inline) is
 * skipped: an example may show any of this as written.
 */

export type LeakKind =
  | 'attribute block'
  | 'macro or shortcode'
  | 'include'
  | 'import line'
  | 'container marker'
  | 'raw HTML';

const TEXT_LEAKS: [LeakKind, RegExp][] = [
  ['attribute block', /(?<!\{)\{[ \t]*:?[ \t]*[#.][\w-]+(?:[ \t]+[^{}\n]*)?\}/],
  // Shortcodes, and KumaScript-style macros: a name with arguments (a Go template in prose,
  // `{{.app.spec.source.repoURL}}`, is text its readers see).
  ['macro or shortcode', /\{\{[<%]|\{\{[ \t]*[A-Za-z][\w-]*[ \t]*(?:\([^)]*\))?[ \t]*\}\}/],
  ['include', /\{\*[\s\S]*?\*\}|\{![\s\S]*?!\}|--8<--/],
  ['import line', /^(?:import\s[^\n]*\sfrom\s+['"]|export\s+(?:const|default|function)\b)/m],
  ['container marker', /^(?:!!!|\?\?\?\+?|===\s*")[ \t]|^\/\/\/[ \t]*\w|^:::|^\[![A-Za-z]+\]/m],
];
const TAG = /<\/?[A-Za-z][\w.-]*(?:\s[^<>]*)?\/?>|<!--/;

/**
 * The leaks in a title or heading. A heading is plain text whose code spans are no longer told
 * apart (`` `inferHandlerInput<T>` ``): its raw HTML is found in its section's text, where its
 * line is Markdown. A title may come from frontmatter, which no section holds.
 */
export function lineLeaks(text: string, { title }: { title: boolean }): LeakKind[] {
  const kinds = TEXT_LEAKS.filter(([, re]) => re.test(text)).map(([kind]) => kind);
  if (title && TAG.test(text)) kinds.push('raw HTML');
  return kinds;
}

/** The leaks in a section's Markdown text, outside code. */
export function textLeaks(markdown: string): LeakKind[] {
  const found = new Set<LeakKind>();
  const visit = (node: Nodes) => {
    if (node.type === 'code' || node.type === 'inlineCode') return;
    if (node.type === 'html') {
      found.add('raw HTML');
    } else if (node.type === 'text') {
      for (const [kind, re] of TEXT_LEAKS) if (re.test(node.value)) found.add(kind);
    } else if ('children' in node) {
      for (const child of node.children) visit(child);
    }
  };
  visit(parseMarkdown(markdown));
  return [...found];
}
