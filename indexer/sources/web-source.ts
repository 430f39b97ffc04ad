import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { corpusKey, type WebSpec } from '../../src/corpus-spec.js';
import type { WebLimits } from '../../src/settings/web.js';
import { crawl } from './crawl.js';
import type { GitSourceOptions } from './git-source.js';
import { pageLinks } from './page-links.js';
import { ALLOW_ALL, parseRobots, type Robots } from './robots.js';
import { readSitemaps } from './sitemap.js';
import { acquireSourceLock } from './source-lock.js';
import { type FetchBounds, fetchBounded } from './web-fetch.js';
import { type PageState, readState, removePage, startFolder, underStart, writePage, writeState } from './web-mirror.js';

/**
 * A website corpus (`--corpus https://docs.example.com/guide/`), crawled into
 * `<sources>/<key>/site/` (web-mirror.ts) and indexed from there as a folder. robots.txt is read
 * first and obeyed; then sitemap.xml (or the sitemaps robots.txt names) when the site has one,
 * else links are followed from the start page. Pages gone from the site are removed from the copy;
 * pages that failed this time (a timeout, a server error) keep their last copy.
 */

/** A git corpus's options (git-source.ts) but the crawl's bounds; `fetch` false: use the last crawl without asking the site (serve's check of its index). */
export type WebSourceOptions = Pick<GitSourceOptions, 'sourcesDir' | 'fetch' | 'log'> & { limits: WebLimits };

export interface SyncedSite {
  /** The folder to index. */
  dir: string;
  /** The copy's own folder. */
  home: string;
  /** Each stored page's published URL, by its absolute file path. */
  pageUrls: Map<string, string>;
}

export async function syncWebSource(spec: WebSpec, options: WebSourceOptions): Promise<SyncedSite> {
  const home = resolve(options.sourcesDir, corpusKey(spec));
  const siteDir = join(home, 'site');
  mkdirSync(siteDir, { recursive: true });
  if (!options.fetch) return synced(home, siteDir, readState(home, spec.url).pages);
  const release = acquireSourceLock(join(home, 'lock'), spec.url);
  try {
    const state = readState(home, spec.url);
    const previous = Object.fromEntries(
      Object.entries(state.pages).filter(([, p]) => existsSync(join(siteDir, p.file))),
    );
    const start = new URL(spec.url);
    const folder = startFolder(start);
    const bounds: FetchBounds = {
      timeoutMs: options.limits.timeoutMs,
      maxBytes: options.limits.maxPageBytes,
      take: () => true,
    };
    const robots = await readRobots(start, bounds, options.log);
    const candidates =
      robots.sitemaps.length > 0
        ? robots.sitemaps.map((s) => new URL(s, start))
        : [new URL('sitemap.xml', folder), new URL('/sitemap.xml', start)];
    const sitemap = await readSitemaps(candidates, bounds, options.limits.maxPages, start.origin).catch(
      (error: Error) => {
        options.log(`${spec.url}: the sitemap could not be read (${error.message}); following links instead`);
        return undefined;
      },
    );
    for (const line of sitemap?.lines ?? []) options.log(line);
    // A sitemap with no page below the start folder (the whole site's, another section's) says nothing of it: links are followed.
    const listed = sitemap?.urls.filter((u) => underStart(u, folder)) ?? [];
    const seeds = listed.length > 0 ? [start, ...listed] : undefined;
    const result = await crawl({
      start,
      folder,
      seeds,
      robots,
      limits: options.limits,
      previous,
      store: (file, body) => writePage(siteDir, file, body),
      storedLinks: (file, url) => pageLinks(readFileSync(join(siteDir, file), 'utf8'), url),
      log: options.log,
    });
    const pages = { ...result.kept, ...result.pages };
    const keptFiles = new Set(Object.values(pages).map((p) => p.file));
    for (const old of Object.values(state.pages)) if (!keptFiles.has(old.file)) removePage(siteDir, old.file);
    writeState(home, { start: spec.url, pages });
    options.log(
      `${spec.url}: ${Object.keys(pages).length} pages (${result.downloaded} downloaded, ${result.unchanged} unchanged)`,
    );
    return synced(home, siteDir, pages);
  } finally {
    release();
  }
}

async function readRobots(start: URL, bounds: FetchBounds, log: (line: string) => void): Promise<Robots> {
  try {
    const fetched = await fetchBounded(new URL('/robots.txt', start), bounds);
    return fetched.kind === 'body' ? parseRobots(fetched.body.toString('utf8')) : ALLOW_ALL;
  } catch (error) {
    // RFC 9309 says an unreachable robots.txt means "disallow all"; a crawl that reads nothing says so.
    log(`${start.origin}/robots.txt could not be read (${(error as Error).message}): nothing is crawled`);
    return { allowed: () => false, sitemaps: [] };
  }
}

function synced(home: string, siteDir: string, pages: Record<string, PageState>): SyncedSite {
  const pageUrls = new Map(Object.entries(pages).map(([url, p]) => [join(siteDir, p.file), url]));
  return { dir: siteDir, home, pageUrls };
}
