import { createHash } from 'node:crypto';
import { DEFAULT_INCLUDE_DEPTH, expandIncludes, type IncludeProblem } from '../chunk/dialects/expand-includes.js';
import { escapeName } from './corpus-walk.js';
import { formatOf } from '../formats/supported.js';
import type { IncludeFiles, ReadInclude } from './include-files.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { neverRendered, type PageTraits } from './page-traits.js';
import type { SkipLog } from './skipped-files.js';

/**
 * A knowledge base's files as its site shows them: files the site never renders as pages (Hugo
 * headless bundles, Docusaurus partials) are left out, each named once with why, and pages have
 * the files they include put in place (dialects/expand-includes.ts). A page's digest then covers
 * what it includes (its own sha256 and each included file's, by path), so a reindex parses it
 * again when a fragment it includes changes.
 */

/** What of a corpus document this needs (load-corpus.ts's CorpusDocument adds its URL; it imports this file). */
export interface PageDocument {
  kb: string;
  /** Path within the knowledge base, forward slashes. */
  path: string;
  source: string;
  /** sha256 of the file's bytes: what incremental reindexing compares. */
  hash: string;
}

export interface ReadPage<D extends PageDocument = PageDocument> {
  doc: D;
  /** Its full path. */
  file: string;
  traits: PageTraits;
}

export interface IncludeContext {
  files: IncludeFiles;
  /** Included text a page may take in all, in characters (the per-file size limit). */
  maxChars: number;
  /** Included text the pages of the whole load may still take (CORPUS_INCLUDE_FACTOR), shared by every page. */
  corpus: { left: number };
  skips: SkipLog;
  /** Problems already told in this load, so each is told once. */
  told: Set<string>;
}

export function pagesAsSeen<D extends PageDocument>(
  pages: readonly ReadPage<D>[],
  kb: KnowledgeBase,
  context: IncludeContext,
): D[] {
  const cascading = new Set(
    pages
      .filter((p) => p.traits.cascadesHeadless && /(^|\/)_index\.[^/]+$/.test(p.doc.path))
      .map((p) => p.doc.path.split('/').slice(0, -1).join('/')),
  );
  const out: D[] = [];
  for (const page of pages) {
    const why = neverRendered(page.doc.path, page.traits, cascading, kb.layout.generator);
    if (why !== undefined) {
      const name = escapeName(`${page.doc.kb}/${page.doc.path}`);
      context.skips.skip(name, 'never-rendered', `${why}; its text is indexed where pages include it`);
      continue;
    }
    // Another format's text (HTML, a notebook's JSON) is not where Markdown directives are written.
    const markdown = (formatOf(page.doc.path) ?? 'markdown') === 'markdown';
    out.push(page.traits.includes && markdown ? withIncludes(page, kb, context) : page.doc);
  }
  return out;
}

/**
 * What the pages of one load may include in all: 32 times the per-file limit (32 MiB by default).
 * Each page's bound alone let 2 KB of 200-byte pages, each including 1 MiB, make a 37 MB index
 * (689 MB peak, issue 40); real corpora include well under a tenth of this.
 */
export const CORPUS_INCLUDE_FACTOR = 32;

function withIncludes<D extends PageDocument>(
  { doc, file }: ReadPage<D>,
  kb: KnowledgeBase,
  context: IncludeContext,
): D {
  const { files, corpus } = context;
  const page = { id: files.idOf(file), text: doc.source };
  const maxChars = Math.min(context.maxChars, corpus.left);
  const limits = { maxDepth: DEFAULT_INCLUDE_DEPTH, maxChars };
  const expanded = expandIncludes<ReadInclude>(page, (d, from) => files.resolve(d, from.id, kb.layout), limits);
  corpus.left -= Math.max(0, expanded.text.length - doc.source.length);
  for (const problem of expanded.problems)
    tell(
      problem.kind === 'too-large' && maxChars < context.maxChars ? { ...problem, kind: 'corpus-full' } : problem,
      context,
    );
  if (expanded.included.length === 0) return doc;
  const digest = createHash('sha256').update(doc.hash);
  for (const included of expanded.included) digest.update(`\0${included.id}\0${included.hash}`);
  return { ...doc, source: expanded.text, hash: digest.digest('hex') };
}

type Told = Omit<IncludeProblem, 'kind'> & { kind: IncludeProblem['kind'] | 'corpus-full' };

const PROBLEMS: Record<Told['kind'], string> = {
  missing: 'no such file inside the corpus folder; it is left out',
  cycle: 'the file includes itself (through others); the repeat is left out',
  'too-deep': `includes are nested more than ${DEFAULT_INCLUDE_DEPTH} deep; the deeper ones are left out`,
  'too-large':
    'what the page includes in all (indentation counted) is over the per-file size limit (SVC_DOCS_MAX_FILE_BYTES); the rest is left out',
  'corpus-full': `what the corpus's pages include in all is over ${CORPUS_INCLUDE_FACTOR} times the per-file size limit (SVC_DOCS_MAX_FILE_BYTES); the rest is left out`,
};

function tell(problem: Told, context: IncludeContext): void {
  const key = `${problem.kind}\0${problem.from}\0${problem.target}`;
  if (context.told.has(key)) return;
  context.told.add(key);
  context.skips.tell(
    `warning: ${escapeName(problem.from)} includes "${escapeName(problem.target)}": ${PROBLEMS[problem.kind]}`,
    `includes: ${problem.kind}`,
  );
}
