import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The material the distinct scale corpus (scale-mix.ts) is recombined from: every page of the real
 * corpora split into its sections' headings and blocks, and pools of each kind of block (prose
 * sentences, code, lists, tables, the rest) across all of them. Line-based, not a Markdown parser:
 * it only has to cut pages where their authors did (blank lines, fences, headings).
 */

export type BlockKind = 'prose' | 'code' | 'list' | 'table' | 'other';

export interface TemplateSection {
  /** Heading depth (1–6), 0 for the text before the first heading. */
  depth: number;
  /** How many sentences each prose block has, and the kind of every block, in order. */
  blocks: { kind: BlockKind; sentences: number }[];
}

/** A real page's shape: its top folder and its sections' depths and blocks (no text). */
export interface TemplatePage {
  area: string;
  sections: TemplateSection[];
}

export interface MixSource {
  pages: TemplatePage[];
  titles: string[];
  headings: string[];
  sentences: string[];
  blocks: Record<Exclude<BlockKind, 'prose'>, string[]>;
}

const MARKDOWN = /\.(md|mdx|markdown)$/i;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
/** A sentence ends at . ! or ? followed by space and a capital, a backtick or a link. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z`[])/;

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...markdownFiles(path));
    else if (MARKDOWN.test(name) && stat.size > 0) out.push(path);
  }
  return out;
}

/** The page without its front matter, and the title the front matter gives, if any. */
function withoutFrontMatter(text: string): { body: string; title?: string } {
  if (!text.startsWith('---\n')) return { body: text };
  const end = text.indexOf('\n---', 4);
  if (end < 0) return { body: text };
  const title = /^title:\s*['"]?(.+?)['"]?\s*$/m.exec(text.slice(4, end))?.[1];
  return { body: text.slice(text.indexOf('\n', end + 4) + 1), ...(title ? { title } : {}) };
}

function kindOf(block: string): BlockKind {
  if (FENCE.test(block)) return 'code';
  if (/^\s*([-*+]|\d+\.)\s/.test(block)) return 'list';
  if (/^\s*\|/.test(block) || /\n\s*\|?\s*:?-{3,}/.test(block)) return 'table';
  if (/^[A-Za-z`*_[(]/.test(block) && !/^\[[^\]]*\]:/.test(block)) return 'prose';
  return 'other';
}

/** A section body's blocks: runs of lines between blank lines, a fenced block whole. */
function blocksOf(lines: string[]): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      flush();
      fence = marker;
      current.push(line);
      continue;
    }
    if (fence !== undefined) {
      current.push(line);
      if (marker?.startsWith(fence[0]!) && marker.length >= fence.length) {
        fence = undefined;
        flush();
      }
      continue;
    }
    if (line.trim() === '') flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

/** A page's sections: cut at each heading line outside a fence. */
function sectionsOf(body: string): { depth: number; heading: string; lines: string[] }[] {
  const sections = [{ depth: 0, heading: '', lines: [] as string[] }];
  let inFence = false;
  for (const line of body.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (heading) sections.push({ depth: heading[1]!.length, heading: heading[2]!, lines: [] });
    else sections.at(-1)!.lines.push(line);
  }
  return sections;
}

/** Reads every page of `corpusDirs` into templates and pools. */
export function readMixSource(corpusDirs: string[]): MixSource {
  const source: MixSource = {
    pages: [],
    titles: [],
    headings: [],
    sentences: [],
    blocks: { code: [], list: [], table: [], other: [] },
  };
  for (const dir of corpusDirs) {
    for (const file of markdownFiles(dir)) {
      const { body, title } = withoutFrontMatter(readFileSync(file, 'utf8'));
      const page: TemplatePage = { area: relative(dir, file).split('/')[0]!.replace(MARKDOWN, ''), sections: [] };
      for (const section of sectionsOf(body)) {
        if (section.depth === 1 && source.titles.length < 1e6) source.titles.push(section.heading);
        else if (section.depth > 1) source.headings.push(section.heading);
        const shape: TemplateSection = { depth: section.depth, blocks: [] };
        for (const block of blocksOf(section.lines)) {
          const kind = kindOf(block);
          if (kind === 'prose') {
            const sentences = block.replace(/\s*\n\s*/g, ' ').split(SENTENCE_END);
            source.sentences.push(...sentences);
            shape.blocks.push({ kind, sentences: sentences.length });
          } else {
            source.blocks[kind].push(block);
            shape.blocks.push({ kind, sentences: 0 });
          }
        }
        if (section.depth > 0 || shape.blocks.length > 0) page.sections.push(shape);
      }
      if (title !== undefined) source.titles.push(title);
      if (page.sections.length > 0) source.pages.push(page);
    }
  }
  return source;
}
