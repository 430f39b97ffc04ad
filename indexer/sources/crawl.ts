import type { WebLimits } from '../../src/settings/web.js';
import { pageLinks } from './page-links.js';
import type { Robots } from './robots.js';
import { type Fetched, type FetchBounds, fetchBounded, WebFetchError } from './web-fetch.js';
import { fileFor, type PageState, underStart } from './web-mirror.js';

/**
 * The crawl: from the sitemap's pages, or from the start page following links below the start
 * folder, each page fetched once (conditionally, with what the last crawl saw), within the
 * bounds: pages in flight, requests per second, pages, bytes per page and in all. Every page
 * left out gets one line saying why; a bound reached stops the crawl with one line, and what
 * was read is kept.
 */

export interface CrawlInput {
  start: URL;
  folder: URL;
  /** The sitemap's pages; undefined: follow links from the start page. */
  seeds: URL[] | undefined;
  robots: Robots;
  limits: WebLimits;
  previous: Readonly<Record<string, PageState>>;
  /** Stores a page's body; returns the links of a page unchanged since (read from its stored file). */
  store: (file: string, body: Buffer) => void;
  storedLinks: (file: string, url: URL) => URL[];
  log: (line: string) => void;
}

export interface CrawlOutput {
  /** The pages read (downloaded or unchanged), by URL. */
  pages: Record<string, PageState>;
  /** Pages that could not be read this time (timeouts, server errors): their last copies are kept. */
  kept: Record<string, PageState>;
  downloaded: number;
  unchanged: number;
}

class Crawl {
  readonly out: CrawlOutput = { pages: {}, kept: {}, downloaded: 0, unchanged: 0 };
  private readonly queue: URL[] = [];
  private readonly seen = new Set<string>();
  private readonly files = new Map<string, string>();
  private totalBytes = 0;
  private stopped = false;
  private nextStart = 0;
  private pageBoundTold = false;

  constructor(private readonly input: CrawlInput) {}

  async run(): Promise<CrawlOutput> {
    const { seeds, start } = this.input;
    for (const url of seeds ?? [start]) this.enqueue(url);
    const running = new Set<Promise<void>>();
    while (this.queue.length > 0 || running.size > 0) {
      while (this.queue.length > 0 && running.size < this.input.limits.concurrency && !this.stopped) {
        const job: Promise<void> = this.visit(this.queue.shift()!).finally(() => running.delete(job));
        running.add(job);
      }
      if (this.stopped) this.queue.length = 0;
      if (running.size > 0) await Promise.race(running);
    }
    return this.out;
  }

  private enqueue(url: URL): void {
    const { folder, robots, limits, log } = this.input;
    if (!underStart(url, folder) || this.seen.has(pageKey(url, folder))) return;
    this.seen.add(pageKey(url, folder));
    if (!robots.allowed(url.pathname)) return log(`skipped ${url.href}: robots.txt disallows it`);
    if (this.seen.size > limits.maxPages) {
      if (!this.pageBoundTold)
        log(
          `stopped adding pages at ${limits.maxPages} (SVC_DOCS_WEB_MAX_PAGES): ${url.href} and any further are left out`,
        );
      this.pageBoundTold = true;
      return;
    }
    this.queue.push(url);
  }

  /** Waits for the request's turn under the rate bound. */
  private async turn(): Promise<void> {
    const interval = 1000 / this.input.limits.requestsPerSecond;
    const now = performance.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  private bounds(): FetchBounds {
    const { limits } = this.input;
    return {
      timeoutMs: limits.timeoutMs,
      maxBytes: limits.maxPageBytes,
      take: (bytes) => {
        this.totalBytes += bytes;
        if (this.totalBytes <= limits.maxTotalBytes) return true;
        if (!this.stopped)
          this.input.log(
            `stopped the crawl at ${limits.maxTotalBytes} bytes downloaded (SVC_DOCS_WEB_MAX_TOTAL_BYTES)`,
          );
        this.stopped = true;
        return false;
      },
    };
  }

  private async visit(url: URL): Promise<void> {
    await this.turn();
    if (this.stopped) return;
    const before = this.input.previous[url.href];
    let fetched: Fetched;
    try {
      // A page's last state carries its validators (ETag, Last-Modified) for a conditional request.
      fetched = await fetchBounded(url, this.bounds(), before);
    } catch (error) {
      if (before !== undefined) this.out.kept[url.href] = before;
      if (!this.stopped)
        this.input.log(`skipped ${url.href}: ${error instanceof WebFetchError ? error.message : String(error)}`);
      return;
    }
    this.take(url, fetched, before);
  }

  private take(url: URL, fetched: Fetched, before: PageState | undefined): void {
    const { log } = this.input;
    if (fetched.kind === 'refused') return log(`skipped ${url.href}: ${fetched.reason}`);
    if (fetched.kind === 'missing') return log(`skipped ${url.href}: the server answered ${fetched.status}`);
    if (fetched.kind === 'unchanged') {
      if (before === undefined) return log(`skipped ${url.href}: 304 Not Modified to an unconditional request`);
      this.out.pages[url.href] = before;
      this.files.set(before.file, url.href);
      this.out.unchanged++;
      return this.follow(this.input.storedLinks(before.file, url));
    }
    const final = fetched.url;
    const known = final.href !== url.href && this.seen.has(pageKey(final, this.input.folder));
    if (final.href !== url.href && (!underStart(final, this.input.folder) || known))
      return log(
        `skipped ${url.href}: redirects to ${final.href}, ${known ? 'read as itself' : 'outside the start folder'}`,
      );
    this.seen.add(pageKey(final, this.input.folder));
    const file = fileFor(final, this.input.folder, fetched.contentType);
    if (file === undefined) return log(`skipped ${final.href}: its path cannot be a file name`);
    const other = this.files.get(file);
    if (other !== undefined) return log(`skipped ${final.href}: it would be stored as ${file}, as ${other} is`);
    this.files.set(file, final.href);
    this.input.store(file, fetched.body);
    this.out.pages[final.href] = { file, ...fetched.validators };
    this.out.downloaded++;
    if (/html/i.test(fetched.contentType)) this.follow(pageLinks(fetched.body.toString('utf8'), final));
  }

  private follow(links: URL[]): void {
    if (this.input.seeds !== undefined) return;
    for (const link of links) this.enqueue(link);
  }
}

/** What tells pages apart: the file they are kept in (`guide/` and `guide/index.html` are one page). */
function pageKey(url: URL, folder: URL): string {
  return fileFor(url, folder, 'text/html') ?? url.href;
}

export function crawl(input: CrawlInput): Promise<CrawlOutput> {
  return new Crawl(input).run();
}
