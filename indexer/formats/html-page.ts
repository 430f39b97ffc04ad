import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { FormatError } from './converted.js';
import { oneLine } from './one-line.js';
import { classesOf, textOf } from './html-clean.js';
import { hastToMarkdown } from './html.js';
import { SEPARATOR } from './html-site-name.js';

/**
 * A whole HTML page (a saved docs site, a Sphinx or Confluence export, MkDocs, Docusaurus or
 * Hugo build output) as the Markdown of its main content and its title. The site around the
 * content (navigation, header, footer, sidebars, breadcrumbs, "edit this page", cookie banners)
 * is left out, so it neither matches queries nor repeats on every page.
 */

export interface HtmlPage {
  /** The `<title>` without its site-name part; undefined when the page has none. */
  title: string | undefined;
  markdown: string;
}

const documentParser = unified().use(rehypeParse);

/** DocBook's divisions, one of which holds a chunked page's content. */
const DOCBOOK_DIVISIONS = [
  'book',
  'part',
  'chapter',
  'preface',
  'appendix',
  'reference',
  'refentry',
  'article',
  'glossary',
  'index',
  'sect1',
  'section',
];

/**
 * Where generators put a page's content, most specific first. An `article` counts only when it
 * is the one article inside `main` (MkDocs Material, Docusaurus): `main` also holds sidebars.
 * DocBook's chunked HTML (PostgreSQL, many GNU and Linux manuals) has one division per page
 * directly in the body, between its navigation header and footer (CHROME_CLASSES).
 */
const MAIN_SELECTORS = [
  '[itemprop=articleBody]', // Sphinx (Read the Docs theme), MkDocs' readthedocs theme
  'div.body', // Sphinx (basic, alabaster, classic)
  '.theme-doc-markdown', // Docusaurus: the article without its breadcrumbs and pager
  'div.md-content', // MkDocs Material
  '#main-content', // Confluence export
  '.wiki-content', // Confluence
  '#docContent', // PostgreSQL's DocBook output: the body, navigation dropped as chrome
  DOCBOOK_DIVISIONS.map((d) => `body > div.${d}`).join(', '),
];

/** Confluence titles pages "Space : Page", the site first. */
const SITE_FIRST = new Set(['#main-content', '.wiki-content']);

/** Elements of a page that are site, not content. */
const CHROME_TAGS = new Set(['nav', 'footer', 'aside', 'form']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary']);
const CHROME_CLASSES = [
  'breadcrumb', // outside a nav element (Hugo and Bootstrap themes)
  'breadcrumbs',
  'navheader', // DocBook: the Prev / Up / Home / Next table above and below each page
  'navfooter',
  'toc', // DocBook: a page's table of contents, links to the pages and sections that follow
  'topNav', // Javadoc before version 11 (later ones mark their content with main)
  'subNav',
  'bottomNav',
  'fixedNav',
  'legalCopy',
  'pagination-nav', // Docusaurus: the previous / next pager, outside nav in older versions
  'md-footer', // MkDocs Material
  'theme-doc-version-badge', // Docusaurus: "Version: 2.x" inside the article
  'theme-doc-toc-mobile', // Docusaurus: the collapsed table of contents
  'md-source-file', // MkDocs Material: "Last update", a div in older versions
];
const COOKIE = /cookie|consent|gdpr/i;
const EDIT_LINK =
  /^\s*(edit|improve|suggest (an )?edit(s)? (to|on))\b.*\b(page|github|gitlab|source|doc)|^\s*view (page )?source\b/i;

/**
 * Elements a page may hold, counted by their start tags before parsing. The parse takes some
 * 8-13 KB of heap per element: 100,000 paragraphs (1 MB) took 1.3 GB, and ran the parser out of
 * its heap or over the CPU time limit, whichever came first on that machine, after 13 s of CPU
 * (issue 40); 50,000 ran out of 384 MB, 25,000 fitted. Counted, such a page is refused at once
 * and the same way everywhere. PostgreSQL's largest page (bookindex.html, 434 KB) has 7,317.
 */
export const MAX_HTML_ELEMENTS = 50_000;

function checkElementCount(source: string): void {
  let count = 0;
  for (let at = source.indexOf('<'); at !== -1; at = source.indexOf('<', at + 1)) {
    const next = source.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a && ++count > MAX_HTML_ELEMENTS)
      throw new FormatError(`it has over ${MAX_HTML_ELEMENTS.toLocaleString('en-US')} elements; it is not converted`);
  }
}

export function htmlPage(source: string): HtmlPage {
  checkElementCount(source);
  const tree = documentParser.parse(source);
  const { main, siteFirst } = mainElement(tree);
  const markdown = hastToMarkdown(main, isChrome);
  return { title: pageTitle(tree, markdown, siteFirst), markdown };
}

function mainElement(tree: Root): { main: Element | Root; siteFirst: boolean } {
  for (const selector of MAIN_SELECTORS) {
    const found = select(selector, tree);
    if (found) return { main: found, siteFirst: SITE_FIRST.has(selector) };
  }
  const main = select('main', tree) ?? select('[role=main]', tree);
  const articles = selectAll('article', main ?? tree);
  if (articles.length === 1) return { main: articles[0]!, siteFirst: false };
  if (main) return { main, siteFirst: false };
  // No marked content: the body without the site's header (a header holding the page's heading stays).
  return { main: select('body', tree) ?? tree, siteFirst: false };
}

/** True for an element of the site around the content. */
function isChrome(element: Element): boolean {
  const { tagName, properties } = element;
  if (CHROME_TAGS.has(tagName)) return true;
  if (tagName === 'header') return !select('h1, h2, h3, h4, h5, h6', element);
  if (typeof properties.role === 'string' && CHROME_ROLES.has(properties.role)) return true;
  const classes = classesOf(element);
  if (classes.some((c) => CHROME_CLASSES.includes(c))) return true;
  if (COOKIE.test(`${classes.join(' ')} ${String(properties.id ?? '')}`)) return true;
  if (tagName !== 'a') return false;
  return [textOf(element), properties.title, properties.ariaLabel].some(
    (label) => typeof label === 'string' && EDIT_LINK.test(label),
  );
}

/**
 * The page's `<title>` without the site's name: "Install — Project 1.0 documentation" (Sphinx),
 * "Install - Material for MkDocs", "Install | tRPC" (Docusaurus, Hugo) give "Install", as does
 * Confluence's "Space : Install". A part that is the content's first H1 wins; else the part
 * before the last separator (after the first, for Confluence).
 */
function pageTitle(tree: Root, markdown: string, siteFirst: boolean): string | undefined {
  const titleElement = select('head > title', tree) ?? select('title', tree);
  const title = titleElement ? oneLine(textOf(titleElement)) : '';
  if (title === '') return undefined;
  const separators = [...title.matchAll(SEPARATOR)];
  const first = separators[0];
  const last = separators.at(-1);
  if (first === undefined || last === undefined) return title;
  const beforeLast = title.slice(0, last.index).trim();
  const afterFirst = title.slice(first.index + first[0].length).trim();
  const h1 = /^# (.+)$/m.exec(markdown)?.[1]?.trim().toLowerCase();
  for (const part of [beforeLast, afterFirst]) if (part.toLowerCase() === h1) return part;
  return siteFirst ? afterFirst : beforeLast;
}
