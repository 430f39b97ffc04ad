import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../../indexer/build.js';
import type { WebLimits } from '../../../src/settings/web.js';
import { tempDir, writeFiles } from '../../helpers/index-fixture.js';
import { type Route, type StaticSite, startStaticSite } from '../../helpers/static-site.js';

/**
 * Hostile and broken websites, served on 127.0.0.1 by the test: an endless link maze, a page of
 * 1 GB (made as it is sent, never held), a redirect to another host, a server that never
 * answers, a robots.txt disallow and a sitemap of a million entries. Each crawl stops within its
 * bound with one line saying so, and the build finishes with what was read.
 */

const LIMITS: WebLimits = {
  maxPages: 30,
  maxPageBytes: 256 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  concurrency: 4,
  requestsPerSecond: 500,
  timeoutMs: 1500,
};
const GIGABYTE = 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

const sent = { hugeBytes: 0, sitemapEntries: 0, privateRequests: 0 };

function page(title: string, links: string[] = [], text = 'Plain words about the topic.'): string {
  const anchors = links.map((l) => `<a href="${l}">${l}</a>`).join(' ');
  return `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text} ${anchors}</p></main></body></html>`;
}

/** Writes `total` bytes from a generator, stopping when the client goes away. */
function stream(res: ServerResponse, next: () => Buffer | undefined, onChunk: (n: number) => void): void {
  const write = () => {
    for (;;) {
      if (res.destroyed) return;
      const chunk = next();
      if (chunk === undefined) return void res.end();
      onChunk(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', write);
    }
  };
  write();
}

const routes: Route[] = [
  (req, res) => {
    const maze = /^\/maze\/(\d+)\.html$/.exec(req.url ?? '');
    if (!maze) return false;
    const n = Number(maze[1]);
    res.writeHead(200, { 'content-type': 'text/html' }).end(page(`Room ${n}`, [`${n + 1}.html`, `${2 * n + 7}.html`]));
    return true;
  },
  (req, res) => {
    if (req.url !== '/hostile/huge.html') return false;
    res.writeHead(200, { 'content-type': 'text/html' });
    let left = GIGABYTE;
    stream(
      res,
      () => (left <= 0 ? undefined : ((left -= CHUNK.length), CHUNK)),
      (n) => (sent.hugeBytes += n),
    );
    return true;
  },
  (req, res) => {
    if (req.url !== '/hostile/away.html') return false;
    const port = (req.socket.localPort ?? 0).toString();
    res.writeHead(302, { location: `http://localhost:${port}/hostile/ok.html` }).end();
    return true;
  },
  (req: IncomingMessage, _res: ServerResponse) => req.url === '/hostile/slow.html', // never answered
  (req, res) => {
    if (!(req.url ?? '').startsWith('/hostile/private/')) return false;
    sent.privateRequests++;
    res.writeHead(200, { 'content-type': 'text/html' }).end(page('Private'));
    return true;
  },
  (req, res) => {
    if (req.url === '/robots.txt') return (void res.end('User-agent: *\nDisallow: /hostile/private/\n'), true);
    if (req.url !== '/big/sitemap.xml') return false;
    res.writeHead(200, { 'content-type': 'application/xml' });
    const port = req.socket.localPort;
    let n = 0;
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    stream(
      res,
      () =>
        n >= 1_000_000 ? undefined : Buffer.from(`<url><loc>http://127.0.0.1:${port}/big/p${n++}.html</loc></url>\n`),
      () => sent.sitemapEntries++,
    );
    return true;
  },
];

let site: StaticSite;
beforeAll(async () => {
  const root = tempDir('hostile-site');
  const pages = ['maze/0.html', 'huge.html', 'away.html', 'slow.html', 'private/secret.html', 'ok.html'];
  writeFiles(root, {
    'hostile/index.html': page(
      'Hostile index',
      pages.map((p) => (p.startsWith('maze/') ? `../${p}` : p)),
    ),
    'hostile/ok.html': page('Fine page', [], 'The fine page is read.'),
    'big/index.html': page('Big sitemap'),
    ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`big/p${i}.html`, page(`Entry ${i}`)])),
  });
  site = await startStaticSite(root, routes);
});
afterAll(() => site?.close());

async function crawlBuild(start: string) {
  const lines: string[] = [];
  const summary = await buildIndex({
    corpusDirs: [start],
    outDir: tempDir('hostile-index'),
    vectorCacheDir: tempDir('hostile-vectors'),
    sources: { sourcesDir: tempDir('hostile-sources'), webLimits: LIMITS },
    log: (line) => lines.push(line),
  });
  return { summary, lines };
}

describe('hostile websites are bounded', () => {
  it('a link maze, a 1 GB page, a redirect away, a silent server and robots.txt: one line each, the build finishes', async () => {
    const { summary, lines } = await crawlBuild(`${site.url}maze/0.html`);
    expect(summary.documents).toBe(LIMITS.maxPages);
    expect(lines.filter((l) => l.includes('SVC_DOCS_WEB_MAX_PAGES'))).toHaveLength(1);

    const hostile = await crawlBuild(`${site.url}hostile/`);
    const about = (page: string) => hostile.lines.filter((l) => l.includes(`/hostile/${page}`));
    expect(about('huge.html')).toEqual([
      expect.stringMatching(/over the limit of 262144 bytes per page \(SVC_DOCS_WEB_MAX_PAGE_BYTES\)/),
    ]);
    expect(sent.hugeBytes).toBeLessThan(64 * 1024 * 1024);
    expect(about('away.html')).toEqual([expect.stringMatching(/redirects to another host \(http:\/\/localhost:\d+\)/)]);
    expect(about('slow.html')).toEqual([
      expect.stringMatching(/no complete answer within 1.5 s \(SVC_DOCS_WEB_TIMEOUT_SECONDS\)/),
    ]);
    expect(about('private/secret.html')).toEqual([expect.stringMatching(/robots\.txt disallows it/)]);
    expect(sent.privateRequests).toBe(0);
    // The maze lies outside the start folder: not followed, and no line for each of its links.
    expect(hostile.lines.some((l) => l.includes('/maze/'))).toBe(false);
    expect(hostile.summary.documents).toBe(2);
  });

  it('a sitemap of a million entries is read up to the page bound, as it streams', async () => {
    const { summary, lines } = await crawlBuild(`${site.url}big/`);
    expect(lines.filter((l) => l.includes('sitemap.xml'))).toEqual([
      expect.stringMatching(/big\/sitemap\.xml: read its first 30 entries only \(SVC_DOCS_WEB_MAX_PAGES\)/),
    ]);
    expect(sent.sitemapEntries).toBeLessThan(1_000_000);
    expect(summary.documents).toBeGreaterThan(0);
    expect(summary.documents).toBeLessThanOrEqual(LIMITS.maxPages);
  });
});
