import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/**
 * A website corpus's local copy: each page read is a file under `<home>/site/` at its URL's path
 * below the start folder (`guide/` → `guide/index.html`, `setup` → `setup.html`), and
 * `<home>/state.json` remembers each page's URL, file and validators (ETag, Last-Modified) for
 * the next crawl's conditional requests and for the published URL each result shows.
 */

const PAGE_EXTENSIONS = /\.(html?|md|markdown|mdx|txt)$/i;
const MAX_SEGMENT_CHARS = 200;

export const pageStateSchema = z.object({
  file: z.string(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
});
export type PageState = z.infer<typeof pageStateSchema>;

const stateSchema = z.object({ start: z.string(), pages: z.record(z.string(), pageStateSchema) });
export type MirrorState = z.infer<typeof stateSchema>;

/** The start URL's folder: pages are read only below it. */
export function startFolder(start: URL): URL {
  const folder = new URL(start.href);
  folder.search = '';
  folder.pathname = folder.pathname.replace(/[^/]*$/, '');
  return folder;
}

/** Whether `url` is a page of the crawl: same origin, below the start folder, no query. */
export function underStart(url: URL, folder: URL): boolean {
  return url.origin === folder.origin && url.search === '' && url.pathname.startsWith(folder.pathname);
}

/** The file (relative, forward slashes) a page is kept in, or undefined for a path no file can have. */
export function fileFor(url: URL, folder: URL, contentType: string): string | undefined {
  const rel = url.pathname.slice(folder.pathname.length);
  let segments: string[];
  try {
    segments = rel.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  const last = segments.pop() ?? '';
  const unusable = (s: string) => s === '.' || s === '..' || s.length > MAX_SEGMENT_CHARS || /[\\/\0]/.test(s);
  if (segments.some((s) => s === '' || unusable(s)) || unusable(last)) return undefined;
  const html = /html/i.test(contentType);
  const name = last === '' ? 'index.html' : PAGE_EXTENSIONS.test(last) || !html ? last : `${last}.html`;
  return [...segments, name].join('/');
}

export function readState(home: string, start: string): MirrorState {
  try {
    const state = stateSchema.parse(JSON.parse(readFileSync(join(home, 'state.json'), 'utf8')));
    if (state.start === start) return state;
  } catch {
    // None yet, or unreadable: the crawl starts afresh (and downloads every page once).
  }
  return { start, pages: {} };
}

export function writeState(home: string, state: MirrorState): void {
  writePage(home, 'state.json', JSON.stringify(state));
}

/** Writes a page's file (or the state) whole: a temporary file renamed into place. */
export function writePage(siteDir: string, file: string, body: Buffer | string): void {
  const path = join(siteDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, body);
  renameSync(`${path}.tmp`, path);
}

export function removePage(siteDir: string, file: string): void {
  rmSync(join(siteDir, file), { force: true });
}
