import { select, selectAll } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';

/** The links of an HTML page (`a[href]`, resolved against its `<base href>` or its URL), without fragments. Pure. */

const parser = unified().use(rehypeParse);

export function pageLinks(html: string, pageUrl: URL): URL[] {
  const tree = parser.parse(html);
  const baseHref = select('base[href]', tree)?.properties.href;
  // An unusable <base> is ignored, as browsers do.
  const base = (typeof baseHref === 'string' ? URL.parse(baseHref, pageUrl.href) : null) ?? pageUrl;
  const links: URL[] = [];
  for (const a of selectAll('a[href]', tree)) {
    const href = a.properties.href;
    // Not a URL: nothing to follow.
    const url = typeof href === 'string' ? URL.parse(href, base.href) : null;
    if (url === null) continue;
    url.hash = '';
    links.push(url);
  }
  return links;
}
