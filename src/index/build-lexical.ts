import { LEXICAL_FIELDS, type FieldTokens, type LexicalData } from './lexical-index.js';

/**
 * BM25F statistics of a corpus, built one section at a time into growing typed arrays: a
 * 1M-section corpus never holds every section's tokens at once, nor a JavaScript array per term.
 */

/** Term counts above this are stored as it: BM25 has saturated long before (k1 ≈ 1.2). */
const MAX_TF = 0xffff;

/** A typed array that doubles when full. */
class Growing<T extends Int32Array | Uint32Array | Uint16Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (size: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

const int32s = (n: number) => new Growing(new Int32Array(n), (size) => new Int32Array(size));
const uint32s = (n: number) => new Growing(new Uint32Array(n), (size) => new Uint32Array(size));
const uint16s = (n: number) => new Growing(new Uint16Array(n), (size) => new Uint16Array(size));

/** `sections` in section order, each the tokens of its three fields (an iterable, so they can be made one at a time). */
export function buildLexicalData(sections: Iterable<FieldTokens>): LexicalData {
  const termIds = new Map<string, number>();
  const entryTerm = int32s(1024);
  const entrySection = int32s(1024);
  const entryTf = { title: uint16s(1024), headings: uint16s(1024), body: uint16s(1024) };
  const lengths = { title: uint32s(1024), headings: uint32s(1024), body: uint32s(1024) };
  let sectionCount = 0;
  for (const fields of sections) {
    const counts = new Map<string, [number, number, number]>();
    LEXICAL_FIELDS.forEach((field, f) => {
      lengths[field].push(fields[field].length);
      for (const term of fields[field]) {
        let c = counts.get(term);
        if (!c) counts.set(term, (c = [0, 0, 0]));
        c[f]! += 1;
      }
    });
    for (const [term, [t, h, b]] of counts) {
      let id = termIds.get(term);
      if (id === undefined) termIds.set(term, (id = termIds.size));
      entryTerm.push(id);
      entrySection.push(sectionCount);
      entryTf.title.push(Math.min(t, MAX_TF));
      entryTf.headings.push(Math.min(h, MAX_TF));
      entryTf.body.push(Math.min(b, MAX_TF));
    }
    sectionCount++;
  }
  return groupByTerm(termIds, entryTerm, entrySection, entryTf, sectionCount, lengths);
}

/** Counting sort of the entries (in section order) by sorted term: each term's postings stay in section order. */
function groupByTerm(
  termIds: Map<string, number>,
  entryTerm: Growing<Int32Array>,
  entrySection: Growing<Int32Array>,
  entryTf: Record<(typeof LEXICAL_FIELDS)[number], Growing<Uint16Array>>,
  sectionCount: number,
  lengths: Record<(typeof LEXICAL_FIELDS)[number], Growing<Uint32Array>>,
): LexicalData {
  const terms = [...termIds.keys()].sort();
  const rank = new Uint32Array(terms.length);
  terms.forEach((term, r) => (rank[termIds.get(term)!] = r));
  const n = entryTerm.length;
  const termStart = new Uint32Array(terms.length + 1);
  for (let i = 0; i < n; i++) termStart[rank[entryTerm.data[i]!]! + 1]!++;
  for (let r = 0; r < terms.length; r++) termStart[r + 1]! += termStart[r]!;
  const next = termStart.slice(0, terms.length);
  const postingSections = new Int32Array(n);
  const tf = { title: new Uint16Array(n), headings: new Uint16Array(n), body: new Uint16Array(n) };
  for (let i = 0; i < n; i++) {
    const at = next[rank[entryTerm.data[i]!]!]!++;
    postingSections[at] = entrySection.data[i]!;
    for (const field of LEXICAL_FIELDS) tf[field][at] = entryTf[field].data[i]!;
  }
  const trimmed = (g: Growing<Uint32Array>) => g.data.slice(0, g.length);
  return {
    sectionCount,
    lengths: { title: trimmed(lengths.title), headings: trimmed(lengths.headings), body: trimmed(lengths.body) },
    terms,
    termStart,
    postingSections,
    tf,
  };
}
