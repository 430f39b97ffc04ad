import { relative, sep } from 'node:path';

/**
 * A page's public URL: where the published site serves the file. Sites differ in one rule, how a
 * file's path becomes a URL path (`urlStyle`):
 *   directory  guide/setup.md → guide/setup/    guide/index.md, README.md, _index.md → guide/   (MkDocs, Hugo)
 *   html       guide/setup.md → guide/setup.html guide/README.md → guide/index.html            (MkDocs without directory URLs)
 *   plain      guide/setup.md → guide/setup     guide/index.md → guide                          (Docusaurus)
 *   source     guide/setup.md → guide/setup.md  (a repository browser: …/blob/main/docs/)
 * Pure.
 */

export const URL_STYLES = ['directory', 'html', 'plain', 'source'] as const;
export type UrlStyle = (typeof URL_STYLES)[number];

export interface PublishedSite {
  /** Absolute http(s) URL of the folder `contentRoot` is published at, ending in `/`. */
  base: string;
  style: UrlStyle;
  /** The folder the site's paths are relative to. */
  contentRoot: string;
}

const FOLDER_PAGE = /^(index|readme|_index)$/i;
const EXTENSION = /\.[^./]+$/;

/** The URL path (unencoded) a site serves `path` (relative, forward slashes) at. */
export function urlPath(path: string, style: UrlStyle): string {
  if (style === 'source') return path;
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const stem = path.slice(slash + 1).replace(EXTENSION, '');
  const folderPage = FOLDER_PAGE.test(stem);
  switch (style) {
    case 'html':
      return `${folder}${folderPage ? 'index' : stem}.html`;
    case 'directory':
      return folderPage ? folder : `${folder}${stem}/`;
    case 'plain':
      return folderPage ? folder.replace(/\/$/, '') : `${folder}${stem}`;
  }
}

/** Ends with exactly one `/`, so relative paths resolve below it. */
export function folderUrl(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The public URL of the file at `file` (absolute), or undefined when it lies outside the site's content. */
export function pageUrl(site: PublishedSite, file: string): string | undefined {
  const rel = relative(site.contentRoot, file);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return undefined;
  const path = urlPath(rel.split(sep).join('/'), site.style);
  return new URL(path.split('/').map(encodeURIComponent).join('/'), folderUrl(site.base)).href;
}
