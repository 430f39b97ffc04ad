import { type Html, trustedHtml } from './html.js';

/**
 * A section's Markdown as HTML a browser may show: parsed with the indexer's own dialect (GFM),
 * raw HTML in the Markdown dropped (remark-rehype without allowDangerousHtml), and the result
 * sanitised (rehype-sanitize, GitHub's schema: no scripts, event handlers, javascript: URLs,
 * forms or frames). Loaded on the first page view, so a server nobody browses never loads the
 * Markdown parser.
 */

export type MarkdownToHtml = (markdown: string) => Html;

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
  return (markdown) => trustedHtml(String(processor.processSync(markdown)));
}

export function markdownToHtml(): Promise<MarkdownToHtml> {
  loading ??= load();
  return loading;
}
