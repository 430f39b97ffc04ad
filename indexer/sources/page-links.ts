import { select, selectAll } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';

/** The links of an HTML page (`a[href]`, resolved against its `<base href>` or its URL), without fragments. Pure. */

const parser = unified().use(rehypeParse);

export function pageLinks(html: string, pageUrl: URL): URL[] {
  const tree = parser.parse(html);
  const baseHref = select('base[href]', tree)?.properties.href;
  let base = pageUrl;
  try {
    if (typeof baseHref === 'string') base = new URL(baseHref, pageUrl);
  } catch {
    // An unusable <base> is ignored, as browsers do.
  }
  const links: URL[] = [];
  for (const a of selectAll('a[href]', tree)) {
    const href = a.properties.href;
    if (typeof href !== 'string') continue;
    try {
      const url = new URL(href, base);
      url.hash = '';
      links.push(url);
    } catch {
      // Not a URL: nothing to follow.
    }
  }
  return links;
}
