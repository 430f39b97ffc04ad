import type { Candidates } from '../../src/search/fuse.js';
import { type Breadth, type DocumentHit, DocumentRanker } from '../../src/search/document-ranker.js';

/** DocumentRanker for one call: a ranker sized to the documents `docOf` names (the engine keeps one per index). */
export function rankDocuments(
  c: Candidates,
  docOf: (section: number) => number,
  supportWeight: number,
  limit: number,
  breadth?: Breadth,
): DocumentHit[] {
  let documents = 0;
  for (let i = 0; i < c.count; i++) documents = Math.max(documents, docOf(c.section[i]!) + 1);
  return new DocumentRanker(documents).rank(c, docOf, supportWeight, limit, breadth);
}
