import type { QuerySet } from '../../bench/queries.js';
import { QUERY_STYLES } from '../../bench/queries.js';
import { parsePage } from './markdown-checks.js';

type Queries = QuerySet['queries'];

/**
 * Checks a labelled query set against the corpus it labels: unique ids, judged pages and
 * headings that exist, every page answered (grade 2) by some query, and styles in similar shares.
 * Pure: `pages` maps `kb/path` to Markdown source.
 */
export function checkQuerySet(
  queries: Queries,
  pages: ReadonlyMap<string, string>,
  options: { minQueries: number; maxStyleShare: number },
): string[] {
  const problems: string[] = [];
  if (queries.length < options.minQueries)
    problems.push(`only ${queries.length} queries; at least ${options.minQueries} are needed`);

  const headingsOf = new Map<string, Set<string>>();
  const headings = (doc: string) => {
    let set = headingsOf.get(doc);
    if (set === undefined) {
      set = new Set(parsePage(pages.get(doc) ?? '').headings.map((h) => h.text));
      headingsOf.set(doc, set);
    }
    return set;
  };

  const ids = new Set<string>();
  const answered = new Set<string>();
  for (const q of queries) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    const docs = new Set<string>();
    for (const r of q.relevant) {
      if (docs.has(r.doc)) problems.push(`${q.id}: ${r.doc} is judged twice`);
      docs.add(r.doc);
      if (!pages.has(r.doc)) {
        problems.push(`${q.id}: ${r.doc} is not a page of the corpus`);
        continue;
      }
      if (r.grade === 2) answered.add(r.doc);
      for (const h of r.headings ?? []) {
        if (!headings(r.doc).has(h)) problems.push(`${q.id}: ${r.doc} has no heading "${h}"`);
      }
    }
    if (!q.relevant.some((r) => r.grade === 2)) problems.push(`${q.id}: no page has grade 2`);
  }

  for (const page of pages.keys()) {
    if (!answered.has(page)) problems.push(`${page}: no query has it as the answering page (grade 2)`);
  }

  for (const style of QUERY_STYLES) {
    const share = queries.filter((q) => q.style === style).length / Math.max(1, queries.length);
    if (share > options.maxStyleShare || share < (1 - options.maxStyleShare) / (QUERY_STYLES.length - 1)) {
      problems.push(
        `style ${style} has ${(share * 100).toFixed(0)}% of the queries: keep the four styles in similar shares`,
      );
    }
  }
  return problems;
}
