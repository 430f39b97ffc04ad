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
  /** Identifiers (options, API names, fields) its headings and inline code use on the most pages. */
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

function ranked(counts: Map<string, number>, limit: number): string[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([key]) => key);
}

function count(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
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
    const terms = new Map<string, number>();
    for (const doc of docs) {
      const slash = doc.path.indexOf('/');
      if (slash > 0) count(areas, doc.path.slice(0, slash));
      const seen = new Set<string>();
      for (let s = doc.firstSection; s < doc.firstSection + doc.sectionCount; s++) {
        const section = input.sections[s];
        if (!section) continue;
        for (const match of (section.headings.at(-1) ?? '').matchAll(IDENTIFIER)) seen.add(match[0]);
        for (const [, code] of section.text.matchAll(INLINE_CODE)) if (isIdentifier(code!)) seen.add(code!);
      }
      // Counted once per page: a name documented on many pages is a central one.
      for (const term of seen) count(terms, term);
    }
    const topics = [...docs]
      .sort((a, b) => b.sectionCount - a.sectionCount || (a.path < b.path ? -1 : 1))
      .map((d) => d.title.trim())
      .filter((t, i, all) => t !== '' && all.indexOf(t) === i)
      .slice(0, MAX_TOPICS);
    return {
      name,
      pages: docs.length,
      areas: ranked(areas, MAX_AREAS),
      topics,
      exampleTerms: ranked(terms, MAX_TERMS),
    };
  });
}
