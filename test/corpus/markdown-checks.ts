import { readdirSync, readFileSync } from 'node:fs';
import { posix, join, relative, sep } from 'node:path';
import type { Nodes, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';

/**
 * Structural checks of a Markdown corpus: frontmatter titles, non-empty pages, unique headings,
 * and relative links (with GitHub-style `#anchors`) that resolve. Pure functions over a map of
 * page path → source, so a test can feed them an inline fixture; `readCorpus` is the only I/O.
 */

export interface PageInfo {
  title: string | undefined;
  headings: { text: string; depth: number; line: number }[];
  links: { url: string; line: number }[];
  code: { lang: string | undefined; value: string; line: number }[];
  /** Body blocks other than headings: paragraphs, lists, tables, code... */
  contentBlocks: number;
}

const parser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);

export function parsePage(source: string): PageInfo {
  const tree: Root = parser.parse(source);
  const info: PageInfo = { title: undefined, headings: [], links: [], code: [], contentBlocks: 0 };
  const first = tree.children[0];
  if (first?.type === 'yaml') info.title = yamlTitle(first.value);
  for (const node of tree.children) {
    if (node.type !== 'yaml' && node.type !== 'heading' && node.type !== 'definition') info.contentBlocks++;
  }
  const visit = (node: Nodes) => {
    const line = node.position?.start.line ?? 0;
    if (node.type === 'heading') info.headings.push({ text: headingText(node), depth: node.depth, line });
    if (node.type === 'link' || node.type === 'definition') info.links.push({ url: node.url, line });
    if (node.type === 'code') info.code.push({ lang: node.lang ?? undefined, value: node.value, line });
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return info;
}

function yamlTitle(value: string): string | undefined {
  try {
    const data: unknown = parseYaml(value);
    if (data !== null && typeof data === 'object' && 'title' in data) {
      const title: unknown = data.title;
      if (typeof title === 'string' && title.trim() !== '') return title.trim();
    }
  } catch {
    // Invalid YAML is reported as a missing title.
  }
  return undefined;
}

function headingText(node: Nodes): string {
  return toString(node).replace(/\s+/g, ' ').trim();
}

/** GitHub's heading slug (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Anchors of a page's headings, with GitHub's `-1`, `-2` suffixes for repeats. */
export function headingAnchors(headings: { text: string }[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of headings) {
    const base = githubSlug(text);
    let slug = base;
    let n = seen.get(base) ?? 0;
    while (anchors.has(slug)) slug = `${base}-${++n}`;
    seen.set(base, n);
    anchors.add(slug);
  }
  return anchors;
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Problems in a set of pages, as `page:line: message`. Page keys are paths relative to the corpus
 * root with forward slashes; links resolve against the linking page's folder.
 */
export function checkPages(pages: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const infos = new Map<string, PageInfo>();
  for (const [path, source] of pages) infos.set(path, parsePage(source));

  for (const [path, info] of infos) {
    if (info.title === undefined)
      problems.push(`${path}:1: no frontmatter title (expected a YAML block with "title: ...")`);
    if (info.contentBlocks === 0) problems.push(`${path}:1: the page has no content besides headings`);
    const byText = new Map<string, number>();
    for (const h of info.headings) {
      const earlier = byText.get(h.text);
      if (earlier !== undefined)
        problems.push(`${path}:${h.line}: heading "${h.text}" repeats the one on line ${earlier}`);
      else byText.set(h.text, h.line);
    }
    for (const link of info.links) {
      const problem = checkLink(path, link.url, infos);
      if (problem !== undefined) problems.push(`${path}:${link.line}: ${problem}`);
    }
  }
  return problems;
}

function checkLink(from: string, url: string, infos: ReadonlyMap<string, PageInfo>): string | undefined {
  if (EXTERNAL.test(url)) return undefined;
  if (url.startsWith('/')) return `link "${url}" is root-absolute: use a path relative to this page`;
  const hashAt = url.indexOf('#');
  const pathPart = decodeURIComponent(hashAt === -1 ? url : url.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(url.slice(hashAt + 1));
  let target = from;
  if (pathPart !== '') {
    target = posix.normalize(posix.join(posix.dirname(from), pathPart));
    if (target.startsWith('../') || target === '..') return `link "${url}" points outside the corpus`;
  }
  const info = infos.get(target);
  if (info === undefined) return `link "${url}" points to ${target}, which does not exist`;
  if (anchor !== undefined && !headingAnchors(info.headings).has(anchor)) {
    return `link "${url}": ${target} has no heading with anchor #${anchor}`;
  }
  return undefined;
}

const MARKDOWN = /\.(md|markdown|mdx)$/i;

/** Every Markdown file below `root`, keyed by its path relative to `root` (forward slashes). */
export function readCorpus(root: string): Map<string, string> {
  const pages = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && MARKDOWN.test(entry.name))
        pages.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return pages;
}
