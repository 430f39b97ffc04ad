import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { htmlSiteName } from '../formats/html-site-name.js';
import { frontMatter } from './page-traits.js';

/**
 * A name for a corpus root read off its home page: the title of its README.md, index.md or
 * _index.md (front matter `title`, else the first `# Heading`), or the site name of its
 * index.html (an HTML export's or a crawled site's: html-site-name.ts), when that title reads as a name:
 * short, plain text, and not a generic page title ("Overview", "Introduction") that would say
 * nothing about which docs these are. Pure but for reading the page's first bytes.
 */

const HOME_PAGES = ['readme.md', 'index.md', '_index.md', 'readme.mdx', 'index.mdx', 'index.html', 'index.htm'];
const HEAD_BYTES = 16 * 1024;
const MAX_NAME_CHARS = 60;
const MAX_NAME_WORDS = 6;
const GENERIC = new Set([
  'about',
  'contents',
  'docs',
  'documentation',
  'get started',
  'getting started',
  'home',
  'index',
  'intro',
  'introduction',
  'overview',
  'readme',
  'start here',
  'table of contents',
  'welcome',
]);
/** Markup a plain name never holds: links, images, HTML, emphasis, code, attribute blocks. */
const MARKUP = /[<>[\]{}*`|\\]/;

/** A title that names the docs, or undefined. */
export function nameLike(title: string | undefined): string | undefined {
  const name = title?.replace(/\s+/g, ' ').trim();
  if (name === undefined || name === '' || name.length > MAX_NAME_CHARS || MARKUP.test(name)) return undefined;
  if (name.split(' ').length > MAX_NAME_WORDS || GENERIC.has(name.toLowerCase())) return undefined;
  return name;
}

/** The first level-one heading (ATX or setext) outside code fences, its attribute block `{#id}` dropped. */
function firstHeading(source: string): string | undefined {
  const lines = source.split(/\r?\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const atx = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    const setext = /^ {0,3}=+[ \t]*$/.test(lines[i + 1] ?? '') && line.trim() !== '' ? line : undefined;
    const heading = atx?.[1] ?? setext;
    if (heading !== undefined) return heading.replace(/\s*\{[^}]*\}\s*$/, '').trim();
  }
  return undefined;
}

/** The title of a Markdown page's head (front matter first). */
export function pageTitle(source: string): string | undefined {
  const title = frontMatter(source)?.title;
  return typeof title === 'string' ? title : firstHeading(source);
}

/** The page's first bytes, where its title is: a regular file only, never a symbolic link. */
function readHead(path: string): string | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    // Without blocking, and checked on the open file: a FIFO swapped in would be waited on for ever.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      const buffer = Buffer.alloc(HEAD_BYTES);
      return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The name the folder's home page gives the docs, or undefined. */
export function homePageName(dir: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const home of HOME_PAGES) {
    const file = entries.find((e) => e.toLowerCase() === home);
    const source = file === undefined ? undefined : readHead(join(dir, file));
    const title = /\.html?$/.test(home) ? htmlSiteName : pageTitle;
    const name = source === undefined ? undefined : nameLike(title(source));
    if (name !== undefined) return name;
  }
  return undefined;
}
