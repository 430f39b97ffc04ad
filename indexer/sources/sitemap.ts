import { type FetchBounds, fetchBounded } from './web-fetch.js';

/**
 * A site's sitemap.xml (or the sitemaps robots.txt names): the page URLs in its `<loc>` elements,
 * read as the answer streams in and given up once `max` entries are found, so a sitemap of a
 * million entries costs the entries wanted, not the file. A sitemap index's child sitemaps are
 * read the same way, one level deep, same origin only. Only `<loc>` is read: no XML library
 * in the project streams, and a sitemap's format asks nothing more of a reader.
 */

export interface SitemapResult {
  urls: URL[];
  /** One line per problem (a child sitemap unreadable, the entry bound reached). */
  lines: string[];
}

const LOC = /<loc>\s*([^<]*?)\s*<\/loc>/g;
const MAX_CHILD_SITEMAPS = 50;
/** What a match may straddle between chunks: longer `<loc>` values are not URLs a crawl would read. */
const MAX_CARRY = 8192;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|apos);/g, (e) => ENTITIES[e]!);
}

/** Reads `<loc>` values from one sitemap, up to `max`; whether it was an index, and whether it was cut short. */
async function readLocs(url: URL, bounds: FetchBounds, max: number) {
  const locs: string[] = [];
  let carry = '';
  let index = false;
  const decoder = new TextDecoder();
  const fetched = await fetchBounded(url, bounds, {}, (chunk) => {
    const text = carry + decoder.decode(chunk, { stream: true });
    if (!index && /<sitemapindex[\s>]/.test(text)) index = true;
    let last = 0;
    for (const match of text.matchAll(LOC)) {
      locs.push(unescapeXml(match[1]!));
      last = match.index + match[0].length;
      if (locs.length >= max) return false;
    }
    carry = text.slice(Math.max(last, text.length - MAX_CARRY));
    return true;
  });
  return { fetched, locs, index, full: locs.length >= max };
}

export async function readSitemaps(
  candidates: readonly URL[],
  bounds: FetchBounds,
  max: number,
  origin: string,
): Promise<SitemapResult> {
  const result: SitemapResult = { urls: [], lines: [] };
  for (const sitemap of candidates) {
    const top = await readLocs(sitemap, bounds, max);
    if (top.fetched.kind !== 'body') continue;
    const pages = top.index ? [] : top.locs;
    if (top.index) {
      for (const child of top.locs.slice(0, MAX_CHILD_SITEMAPS)) {
        const childUrl = sameOrigin(child, origin);
        if (childUrl === undefined) continue;
        const read = await readLocs(childUrl, bounds, max - pages.length);
        for (const loc of read.locs) pages.push(loc);
        if (pages.length >= max) break;
      }
    }
    for (const loc of pages) {
      const page = sameOrigin(loc, origin);
      if (page !== undefined) result.urls.push(page);
    }
    if (pages.length >= max)
      result.lines.push(`${sitemap.href}: read its first ${max} entries only (SVC_DOCS_WEB_MAX_PAGES)`);
    break;
  }
  return result;
}

function sameOrigin(text: string, origin: string): URL | undefined {
  const url = URL.parse(text);
  return url?.origin === origin ? url : undefined;
}
