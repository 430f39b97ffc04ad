import type { Heading, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';
import type { SectionRole } from '../../src/index/format.js';
import { cleanDialects } from './dialects/clean.js';
import { cleanInlineText } from './dialects/edits.js';
import { guardLiteralAutolinks } from './literal-autolinks.js';
import { sectionRole } from './section-role.js';
import { splitLines, splitSection } from './split-section.js';
import { oneLine } from '../formats/one-line.js';

/**
 * Markdown → sections, along the document's structure.
 *
 * The page is first cleaned of its site generator's dialect (dialects/clean.ts): what is chunked
 * and stored is the page as its readers see it. Sections partition the cleaned body: every
 * character after the frontmatter lands in exactly one section, in order (the frontmatter's
 * `description`, when there is one, is added as the page's first paragraph: ledBy). A section
 * starts at a top-level heading and runs to the next one; text before the first heading is a
 * section with no headings. Over-long sections are cut between top-level blocks (or between
 * list items) where they can be; a single block longer than a section may be is cut at line ends,
 * a code block into parts that are each a valid fenced block (split-section.ts), so no section is
 * much longer than `maxSectionChars`, whatever the input (an unclosed fence included).
 */

export interface ChunkOptions {
  /** A section longer than this (in characters) is split into consecutive parts. */
  maxSectionChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxSectionChars: 2000 };

/**
 * Bump whenever chunkMarkdown can cut the same source differently: a reindex reuses the sections
 * of unchanged files from the previous build only when it was chunked by the same version.
 */
export const CHUNKER_VERSION = 10;

export interface ChunkedSection {
  headings: string[];
  text: string;
  role: SectionRole;
}

export interface ChunkedDocument {
  /**
   * Frontmatter `title`, else the first H1, else undefined (the caller falls back to the file
   * name). A page with a frontmatter title and no H1 shows the title as its H1 (Hugo, Docusaurus,
   * MkDocs Material do): it heads every section's path.
   */
  title: string | undefined;
  sections: ChunkedSection[];
}

const parser = unified()
  .use(remarkParse)
  .use(remarkFrontmatter, ['yaml', 'toml'])
  .use(remarkGfm)
  .use(guardLiteralAutolinks);

export function parseMarkdown(source: string): Root {
  return parser.parse(source);
}

/** Cleans, parses and chunks one Markdown document. Pure: no I/O. */
export function chunkMarkdown(
  source: string,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
  /** The title a converted file gives itself (an HTML page's `<title>`), taken before the frontmatter's. */
  fileTitle?: string,
): ChunkedDocument {
  const page = cleanDialects(source, parseMarkdown);
  const doc = chunkTree(page.tree ?? parseMarkdown(page.text), page.text, options);
  const title = fileTitle ?? doc.frontmatterTitle;
  const sections = doc.description === undefined ? doc.sections : ledBy(doc.sections, doc.description);
  // A page with a title and no H1 shows the title as its H1 (Hugo, Docusaurus, Confluence do).
  if (doc.firstH1 === undefined && title !== undefined)
    return { title, sections: sections.map((s) => ({ ...s, headings: [title, ...s.headings] })) };
  return { title: title ?? doc.firstH1 ?? doc.openingHeading, sections };
}

interface ChunkedTree {
  frontmatterTitle: string | undefined;
  /** Frontmatter `description`: the page's summary in its author's words. */
  description: string | undefined;
  firstH1: string | undefined;
  /**
   * The heading that opens a page with no H1 and heads all of it (no later heading as shallow):
   * an mdBook sub-chapter's `## Reading a File`, which its book shows as the page's title.
   */
  openingHeading: string | undefined;
  sections: ChunkedSection[];
}

/** The chunker proper: an mdast tree plus the text it was parsed from, to sections. */
function chunkTree(tree: Root, source: string, options: ChunkOptions): ChunkedTree {
  const children = tree.children;
  let bodyStart = 0;
  let front: { title?: string; description?: string } = {};
  const first = children[0];
  if (first && isFrontmatter(first)) {
    bodyStart = first.position?.end.offset ?? source.length;
    if (first.type === 'yaml') front = fromYaml(first.value);
  }

  const sections: ChunkedSection[] = [];
  const stack: { depth: number; text: string }[] = [];
  let firstH1: string | undefined;
  // The first heading, while nothing but blank text comes before it and no heading after it is as shallow.
  let opening: { depth: number; text: string } | undefined;
  let headingsSeen = 0;
  // Blocks of the section being gathered, with the offset where the section began.
  let current: { headings: string[]; start: number; blocks: RootContent[] } = {
    headings: [],
    start: bodyStart,
    blocks: [],
  };

  const flush = (end: number): boolean => {
    const text = source.slice(current.start, end);
    if (current.headings.length === 0 && text.trim() === '') return false;
    const role = sectionRole(current.headings, current.blocks);
    for (const part of splitSection(current.start, end, current.blocks, source, options.maxSectionChars)) {
      sections.push({ headings: current.headings, text: part, role });
    }
    return true;
  };

  for (const node of children) {
    if (isFrontmatter(node)) continue;
    if (node.type === 'heading') {
      const headingStart = node.position?.start.offset ?? source.length;
      // A blank preamble is not a section of its own: its whitespace joins the first heading's.
      const start = flush(headingStart) ? headingStart : current.start;
      const text = headingText(node);
      if (node.depth === 1 && firstH1 === undefined) firstH1 = text;
      if (headingsSeen++ === 0) opening = start === bodyStart ? { depth: node.depth, text } : undefined;
      else if (opening !== undefined && node.depth <= opening.depth) opening = undefined;
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= node.depth) stack.pop();
      stack.push({ depth: node.depth, text });
      current = { headings: stack.map((h) => h.text), start, blocks: [] };
      continue;
    }
    current.blocks.push(node);
  }
  flush(source.length);
  return {
    frontmatterTitle: front.title,
    description: front.description,
    firstH1,
    openingHeading: opening?.text,
    sections,
  };
}

function isFrontmatter(node: RootContent): boolean {
  // 'toml' nodes exist at run time (remark-frontmatter) but not in mdast's type union.
  const type: string = node.type;
  return type === 'yaml' || type === 'toml';
}

/**
 * A heading as readers see it: inline HTML and components (`<Badge>`, `<Version>`, `<CRoot />`)
 * are markup, not words, and a trailing attribute block (`{#custom-id}`, `{.class}`: VitePress,
 * MkDocs, Pandoc, kramdown) names an anchor. Left in, they put words like "type", "danger" and
 * "root" into the heading field, which ranking weighs most.
 */
export function headingText(node: Heading): string {
  return oneLine(toString(node, { includeHtml: false }).replace(HEADING_ATTRIBUTES, ''));
}

const HEADING_ATTRIBUTES = /\s*\{[#.][^{}]*\}\s*$/;

/** A document that cannot be parsed as Markdown, as plain-text sections of bounded length. */
export function plainSections(source: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): ChunkedSection[] {
  if (source.trim() === '') return [];
  return splitLines(source, options.maxSectionChars).map((text) => ({ headings: [], text, role: 'content' }));
}

/** The frontmatter's `title` and `description`, as readers see them. */
function fromYaml(value: string): { title?: string; description?: string } {
  try {
    const data: unknown = parseYaml(value);
    if (data === null || typeof data !== 'object') return {};
    const { title, description } = data as { title?: unknown; description?: unknown };
    return {
      title: typeof title === 'string' ? readerTitle(title) : typeof title === 'number' ? String(title) : undefined,
      description: typeof description === 'string' ? readerTitle(description) : undefined,
    };
  } catch {
    // Malformed frontmatter is indexed as well as it can be: it just gives no title.
    return {};
  }
}

/**
 * The page's description as the first paragraph under its title (where Hugo's docs show it;
 * Docusaurus and MkDocs put it in search snippets): its author's plain-language summary ("Reports whether the built-in development server is running")
 * is how people ask for the page, in words its body may never use. It opens the text before the
 * first heading, or follows a leading H1; else it is a section of its own before the first.
 */
function ledBy(sections: ChunkedSection[], description: string): ChunkedSection[] {
  const lead = (text: string): ChunkedSection => ({ headings: [], text, role: 'content' });
  const [first, ...rest] = sections;
  if (first === undefined) return [lead(`${description}\n`)];
  if (first.headings.length === 0)
    return [{ ...first, text: `${description}\n\n${first.text.replace(/^\n+/, '')}`, role: 'content' }, ...rest];
  const h1 = first.headings.length === 1 ? /^\s*(?:#[ \t][^\n]*|[^\n]+\n=+[ \t]*)(?:\n|$)/.exec(first.text) : null;
  if (h1 === null) return [lead(`${description}\n\n`), ...sections];
  const at = h1[0].length;
  const text = `${first.text.slice(0, at)}${at > 0 && !h1[0].endsWith('\n') ? '\n' : ''}\n${description}\n\n${first.text.slice(at).replace(/^\n+/, '')}`;
  return [{ ...first, text, role: 'content' }, ...rest];
}

/** A frontmatter title as readers see it: no macros, shortcodes, attribute blocks or tags. */
function readerTitle(title: string): string | undefined {
  const text = oneLine(cleanInlineText(title).replace(/<\/?[A-Za-z][^<>]*>/g, ''));
  return text === '' ? undefined : text;
}
