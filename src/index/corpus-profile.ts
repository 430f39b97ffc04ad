import { isHeaderOrFlag, preferredTerm } from './term-kind.js';

/**
 * What a corpus covers, in a few words per knowledge base, read off the index itself: its
 * largest folders, a few page titles, and identifiers its headings use. The tool description is
 * made from it, so a client's model learns what is served and the words the docs use, whatever
 * the corpus (nothing here is written for one product). Pure.
 */

export interface KnowledgeBaseProfile {
  name: string;
  pages: number;
  /** Top-level folders by page count, largest first ("guide", "api"), or none for a flat folder. */
  areas: string[];
  /** Titles of the pages with the most sections: the corpus's main topics. */
  topics: string[];
  /**
   * Identifiers (options, API names, fields, headers, flags) its headings and inline code use on
   * the most pages, one per family of pages; hosts, file names and constants only to fill.
   */
  exampleTerms: string[];
}

export interface ProfileInput {
  documents: readonly { kb: string; path: string; title: string; sectionCount: number; firstSection: number }[];
  sections: readonly { headings: readonly string[]; text: string }[];
}

const MAX_AREAS = 6;
const MAX_TOPICS = 6;
const MAX_TERMS = 5;
/** Dotted, dashed, snake_case or camelCase names: what a heading names when it documents an identifier. */
const IDENTIFIER = /[A-Za-z_$][\w$]*(?:(?:\.|::|_)[A-Za-z_$][\w$]*)+|\b[a-z]+[A-Z][\w$]*/g;

/** Inline code in a section's Markdown: where docs name their options and APIs. */
const INLINE_CODE = /(?<!`)`([^`\n]{3,40})`(?!`)/g;

function isIdentifier(text: string): boolean {
  const match = text.match(IDENTIFIER);
  return match !== null && match[0] === text;
}

function byCount<T>(counts: Map<string, T>, size: (value: T) => number): string[] {
  return [...counts.entries()].sort((a, b) => size(b[1]) - size(a[1]) || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
}

function count(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/**
 * The identifiers used on the most pages, first skipping one whose pages are mostly another
 * chosen one's: options that come together (an HTTP client's `maxIdleConns`, `maxConnsPerHost`,
 * `idleConnTimeout` on the same seven Argo CD notification pages) show one family once, and the
 * few examples name different parts of the docs. In a knowledge base too small for that, the
 * skipped ones fill the rest, in the same order. Names a model can search for come first
 * (term-kind.ts): a host, file name, error constant or the product's own name only fills what
 * they leave.
 */
function exampleTerms(pagesOf: Map<string, Set<number>>, limit: number, kbName: string): string[] {
  const chosen: Set<number>[] = [];
  const terms: string[] = [];
  const skipped: string[] = [];
  const ranked = byCount(pagesOf, (pages) => pages.size);
  const others = ranked.filter((term) => !preferredTerm(term, kbName));
  for (const term of ranked.filter((t) => preferredTerm(t, kbName))) {
    if (terms.length === limit) break;
    const pages = pagesOf.get(term)!;
    const shared = (other: Set<number>) => {
      let n = 0;
      for (const page of pages) if (other.has(page)) n++;
      return n;
    };
    if (chosen.some((other) => shared(other) * 2 >= pages.size)) {
      skipped.push(term);
      continue;
    }
    chosen.push(pages);
    terms.push(term);
  }
  return [...terms, ...skipped, ...others].slice(0, limit);
}

export function profileCorpus(input: ProfileInput): KnowledgeBaseProfile[] {
  const byKb = new Map<string, ProfileInput['documents'][number][]>();
  for (const doc of input.documents) {
    let list = byKb.get(doc.kb);
    if (!list) byKb.set(doc.kb, (list = []));
    list.push(doc);
  }
  return [...byKb.entries()].map(([name, docs]) => {
    const areas = new Map<string, number>();
    const pagesOf = new Map<string, Set<number>>();
    for (const [page, doc] of docs.entries()) {
      const slash = doc.path.indexOf('/');
      if (slash > 0) count(areas, doc.path.slice(0, slash));
      const seen = new Set<string>();
      for (let s = doc.firstSection; s < doc.firstSection + doc.sectionCount; s++) {
        const section = input.sections[s];
        if (!section) continue;
        for (const match of (section.headings.at(-1) ?? '').matchAll(IDENTIFIER)) seen.add(match[0]);
        for (const [, code] of section.text.matchAll(INLINE_CODE))
          if (isIdentifier(code!) || isHeaderOrFlag(code!)) seen.add(code!);
      }
      // Counted once per page: a name documented on many pages is a central one.
      for (const term of seen) {
        let pages = pagesOf.get(term);
        if (!pages) pagesOf.set(term, (pages = new Set()));
        pages.add(page);
      }
    }
    const topics = [...docs]
      .sort((a, b) => b.sectionCount - a.sectionCount || (a.path < b.path ? -1 : 1))
      .map((d) => d.title.trim())
      .filter((t, i, all) => t !== '' && all.indexOf(t) === i)
      .slice(0, MAX_TOPICS);
    return {
      name,
      pages: docs.length,
      areas: byCount(areas, (n) => n).slice(0, MAX_AREAS),
      topics,
      exampleTerms: exampleTerms(pagesOf, MAX_TERMS, name),
    };
  });
}
