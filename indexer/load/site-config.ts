import { lstatSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { readRegularFile } from './regular-file.js';
import {
  readDocusaurus,
  readHugo,
  readMdbook,
  readMdbookSummary,
  readMkdocs,
  readVitepress,
  type SiteInfo,
  type SiteReader,
} from './site-readers.js';

/**
 * Finds the site generator's configuration that describes a knowledge base's folder: in the
 * folder itself or, for a corpus root, a few folders up (mkdocs.yml sits beside docs/, Hugo's
 * hugo.toml two above content/en/). A config found above the folder is used only when its
 * content folder holds the knowledge base, so an unrelated site further up says nothing. Only
 * regular files of these names are read (never a symbolic link), up to MAX_CONFIG_BYTES.
 */

const MAX_CONFIG_BYTES = 256 * 1024;

const READERS: readonly (readonly [file: string, reader: SiteReader])[] = [
  ...['mkdocs.yml', 'mkdocs.yaml'].map((f) => [f, readMkdocs] as const),
  ...['ts', 'js', 'mjs', 'cjs'].map((ext) => [`docusaurus.config.${ext}`, readDocusaurus] as const),
  ...['hugo', 'config'].flatMap((stem) =>
    ['toml', 'yaml', 'yml', 'json'].map((ext) => [`${stem}.${ext}`, readHugo] as const),
  ),
  ...['ts', 'mts', 'js', 'mjs', 'cts', 'cjs'].map((ext) => [`.vitepress/config.${ext}`, readVitepress] as const),
  ['book.toml', readMdbook],
  ['src/SUMMARY.md', readMdbookSummary],
];

/** The file names (relative to a site's folder) a site configuration may have: what a git checkout brings along. */
export const SITE_CONFIG_FILES: readonly string[] = READERS.map(([file]) => file);

function readSmallFile(path: string): string | undefined {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) return undefined;
    // Checked again on the open file: one swapped for a FIFO since would be waited on for ever.
    return readRegularFile(path).toString('utf8');
  } catch {
    return undefined;
  }
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep));
}

/** `dir` and up to `levels` folders above it, nearest first. */
export function ancestors(dir: string, levels: number): string[] {
  const out = [dir];
  for (let d = dir; out.length <= levels && dirname(d) !== d; d = dirname(d)) out.push(dirname(d));
  return out;
}

/** The first site configuration, nearest first in `searchDirs`, that describes `kbDir`, with the folder it is in. */
export function findSite(searchDirs: readonly string[], kbDir: string): (SiteInfo & { configDir: string }) | undefined {
  for (const dir of searchDirs) {
    for (const [file, reader] of READERS) {
      const source = readSmallFile(join(dir, file));
      if (source === undefined) continue;
      let site: SiteInfo | undefined;
      try {
        site = reader(dir, source, file);
      } catch {
        // A config that does not parse declares nothing; the folder's own name stands.
        continue;
      }
      if (site && (dir === kbDir || inside(kbDir, site.contentRoot))) return { ...site, configDir: dir };
    }
  }
  return undefined;
}

/** The folder an mdBook at `dir` keeps its pages in, when `dir` is a book's root (book.toml, or src/SUMMARY.md). */
export function bookSource(dir: string): string | undefined {
  const site = findSite([dir], dir);
  return site?.generator === 'mdbook' && site.configDir === dir ? site.contentRoot : undefined;
}
