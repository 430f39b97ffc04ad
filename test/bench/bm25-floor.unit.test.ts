import { describe, expect, it } from 'vitest';
import { Bm25Floor, BM25_B, BM25_K1 } from '../../bench/quality/bm25-floor.js';
import { lexicalFields } from '../../indexer/write/section-text.js';
import type { StoredDocument, StoredSection } from '../../src/index/format.js';

/** A corpus of pages given as lists of [heading, body] sections. */
function corpus(pages: Record<string, [string, string][]>): { documents: StoredDocument[]; sections: StoredSection[] } {
  const documents: StoredDocument[] = [];
  const sections: StoredSection[] = [];
  for (const [path, parts] of Object.entries(pages)) {
    documents.push({
      kb: 'kb',
      path,
      title: path,
      hash: path,
      firstSection: sections.length,
      sectionCount: parts.length,
    });
    for (const [heading, body] of parts)
      sections.push({
        doc: documents.length - 1,
        headings: [path, heading],
        text: `## ${heading}\n\n${body}`,
        role: 'content',
      });
  }
  return { documents, sections };
}

/** Textbook BM25 of every section, written the slow way: the oracle. */
function naiveScores(sections: StoredSection[], query: string): number[] {
  const docs = sections.map((s) => {
    const f = lexicalFields('', s);
    return [...f.headings, ...f.body];
  });
  const average = docs.reduce((a, d) => a + d.length, 0) / docs.length;
  const terms = [...new Set(lexicalFields('', { headings: [], text: query }).body)];
  return docs.map((d) =>
    terms.reduce((sum, t) => {
      const tf = d.filter((x) => x === t).length;
      if (tf === 0) return sum;
      const df = docs.filter((x) => x.includes(t)).length;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      return sum + (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * d.length) / average));
    }, 0),
  );
}

const pages = corpus({
  'sync.md': [
    ['Sync', 'Sync applies manifests to the cluster.'],
    ['Sync waves', 'Waves order resources during a sync; lower waves sync first.'],
    ['Hooks', 'Hooks run jobs before or after a sync.'],
  ],
  'rbac.md': [
    ['RBAC', 'Roles grant permissions to projects and applications.'],
    ['Default policy', 'The default role applies when no other role matches.'],
  ],
  'health.md': [['Health', 'Health checks tell whether resources are progressing, healthy or degraded.']],
});

describe('the plain BM25 floor', () => {
  it('ranks pages by the BM25 score of their best section, as the textbook formula gives it', () => {
    const floor = new Bm25Floor(pages.documents, pages.sections);
    for (const query of ['sync waves order', 'default role', 'health progressing resources', 'hooks jobs sync']) {
      const scores = naiveScores(pages.sections, query);
      const bestPerDoc = pages.documents.map((d) => {
        const own = scores.slice(d.firstSection, d.firstSection + d.sectionCount);
        const best = own.indexOf(Math.max(...own));
        return { doc: pages.documents.indexOf(d), section: d.firstSection + best, score: own[best]! };
      });
      const expected = bestPerDoc.filter((h) => h.score > 0).sort((a, b) => b.score - a.score || a.doc - b.doc);
      const got = floor.rank(query, 10);
      expect(got.map((h) => [h.doc, h.section])).toEqual(expected.map((h) => [h.doc, h.section]));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 6));
    }
  });

  it('keeps the best `limit` pages and returns nothing for words the corpus lacks', () => {
    const floor = new Bm25Floor(pages.documents, pages.sections);
    const all = floor.rank('sync roles health', 10);
    expect(all).toHaveLength(3);
    expect(floor.rank('sync roles health', 2)).toEqual(all.slice(0, 2));
    expect(floor.rank('nonexistentword', 5)).toEqual([]);
    // State from one query must not leak into the next.
    expect(floor.rank('sync roles health', 10)).toEqual(all);
  });

  it('shows up to 15 sections on each side of the best one, marking it and what each matches', () => {
    const parts = Array.from({ length: 40 }, (_, i): [string, string] => [
      `Part ${i}`,
      i === 20 ? 'the zeppelin section' : i === 22 ? 'more about a blimp' : 'filler text here',
    ]);
    const big = corpus({ 'long.md': parts, 'other.md': [['Other', 'a blimp and nothing else']] });
    const [result] = new Bm25Floor(big.documents, big.sections).search('zeppelin blimp', 1);
    expect(result!.path).toBe('long.md');
    expect(result!.sections.map((s) => s.position)).toEqual(Array.from({ length: 31 }, (_, i) => 5 + i));
    expect(result!.sections.filter((s) => s.isBest).map((s) => s.position)).toEqual([20]);
    const match = (p: number) => (result!.sections.find((s) => s.position === p) as { match?: number }).match;
    expect(match(20)).toBeGreaterThan(0);
    expect(match(20)).toBeLessThan(1);
    expect(match(22)).toBeGreaterThan(0);
    expect(match(21)).toBe(0);
  });
});
