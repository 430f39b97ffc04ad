import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/**
 * A small static web server on 127.0.0.1 and an ephemeral port, for crawl tests: it serves a
 * folder (index.html for a folder's URL) with ETag and Last-Modified, answers conditional
 * requests with 304, and counts what it sent. `routes` answer paths of their own first (a maze,
 * a huge page, a redirect, a slow page). Only loopback.
 */

export interface SiteCounts {
  /** Full answers (200) and 304s, by path. */
  full: string[];
  notModified: string[];
  all: string[];
}

export interface StaticSite {
  url: string;
  counts: SiteCounts;
  resetCounts(): void;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => boolean;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css',
};

function serveFile(root: string, req: IncomingMessage, res: ServerResponse, counts: SiteCounts): void {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = normalize(join(root, path));
  if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(403).end();
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    const body = readFileSync(file);
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const modified = statSync(file).mtime.toUTCString();
    if (req.headers['if-none-match'] === etag) {
      counts.notModified.push(path);
      return void res.writeHead(304, { etag }).end();
    }
    counts.full.push(path);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      etag,
      'last-modified': modified,
    });
    res.end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}

export async function startStaticSite(root: string, routes: Route[] = []): Promise<StaticSite> {
  const counts: SiteCounts = { full: [], notModified: [], all: [] };
  const server: Server = createServer((req, res) => {
    counts.all.push(req.url ?? '');
    for (const route of routes) if (route(req, res)) return;
    serveFile(normalize(root), req, res, counts);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    counts,
    resetCounts() {
      for (const list of Object.values(counts)) list.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
