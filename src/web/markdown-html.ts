import { type Html, trustedHtml } from './html.js';

/**
 * A section's Markdown as HTML a browser may show: parsed with the indexer's own dialect (GFM),
 * raw HTML in the Markdown dropped (remark-rehype without allowDangerousHtml), and the result
 * sanitised (rehype-sanitize, GitHub's schema: no scripts, event handlers, javascript: URLs,
 * forms or frames). Loaded on the first page view, so a server nobody browses never loads the
 * Markdown parser.
 */

export type MarkdownToHtml = (markdown: string) => Html;

/**
 * Containers one line may open at most: blockquote markers past it are dropped, and indentation
 * past MAX_INDENT columns is cut to it (deeper list items become text or code, as they read). The
 * parser and its tree walks recurse once per level: 6,000 nested `>` overflowed the stack after
 * seconds on the main thread, and 12 requests for such a page stalled the server 6.6 s (issue 40).
 */
export const MAX_NESTING = 16;
const MAX_INDENT = 64;
const DEEP_QUOTE = new RegExp(`^((?:[ \\t]{0,3}>){${MAX_NESTING}})(?:[ \\t]{0,3}>)+`, 'gm');
const DEEP_INDENT = new RegExp(`^([ \\t]{${MAX_INDENT}})[ \\t]+`, 'gm');

/** The Markdown with its nesting bounded (above); everything else as it was. */
export function boundedNesting(markdown: string): string {
  return markdown.replace(DEEP_QUOTE, '$1').replace(DEEP_INDENT, '$1');
}

let loading: Promise<MarkdownToHtml> | undefined;

async function load(): Promise<MarkdownToHtml> {
  const [{ unified }, parse, gfm, toHast, sanitize, stringify] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-gfm'),
    import('remark-rehype'),
    import('rehype-sanitize'),
    import('rehype-stringify'),
  ]);
  const processor = unified()
    .use(parse.default)
    .use(gfm.default)
    .use(toHast.default)
    .use(sanitize.default)
    .use(stringify.default)
    .freeze();
  return (markdown) => trustedHtml(String(processor.processSync(boundedNesting(markdown))));
}

export function markdownToHtml(): Promise<MarkdownToHtml> {
  loading ??= load();
  return loading;
}
