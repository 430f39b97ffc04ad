import { LEXICAL_FIELDS, type FieldTokens, type LexicalData } from './lexical-data.js';

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
  const builder = new LexicalBuilder();
  for (const fields of sections) builder.add(fields);
  return builder.finish();
}

/**
 * buildLexicalData a section at a time: a build adds each document's sections as its parse
 * comes in (in corpus order), while later documents are still being parsed.
 */
export class LexicalBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly entryTerm = int32s(1024);
  private readonly entrySection = int32s(1024);
  private readonly entryTf = { title: uint16s(1024), headings: uint16s(1024), body: uint16s(1024) };
  private readonly lengths = { title: uint32s(1024), headings: uint32s(1024), body: uint32s(1024) };
  private sectionCount = 0;

  /** The next section's tokens. */
  add(fields: FieldTokens): void {
    const counts = new Map<string, [number, number, number]>();
    LEXICAL_FIELDS.forEach((field, f) => {
      this.lengths[field].push(fields[field].length);
      for (const term of fields[field]) {
        let c = counts.get(term);
        if (!c) counts.set(term, (c = [0, 0, 0]));
        c[f]! += 1;
      }
    });
    for (const [term, [t, h, b]] of counts) {
      let id = this.termIds.get(term);
      if (id === undefined) this.termIds.set(term, (id = this.termIds.size));
      this.entryTerm.push(id);
      this.entrySection.push(this.sectionCount);
      this.entryTf.title.push(Math.min(t, MAX_TF));
      this.entryTf.headings.push(Math.min(h, MAX_TF));
      this.entryTf.body.push(Math.min(b, MAX_TF));
    }
    this.sectionCount++;
  }

  /** The statistics of the sections added. */
  finish(): LexicalData {
    const { termIds, entryTerm, entrySection, entryTf, sectionCount, lengths } = this;
    return groupByTerm(termIds, entryTerm, entrySection, entryTf, sectionCount, lengths);
  }
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

/**
 * The statistics of a corpus that is `previous` with some sections replaced, exactly as
 * buildLexicalData would make them from every section's tokens, without those tokens: section s
 * of the new corpus is section `oldOf[s]` of the previous one, or (when -1) the next of `fresh`
 * (the tokens of those sections, in section order). A reindex tokenizes only what changed.
 * Undefined when the kept sections changed order (the postings could not be merged in one pass).
 */
export function updateLexicalData(
  previous: LexicalData,
  oldOf: Int32Array,
  fresh: Iterable<FieldTokens>,
): LexicalData | undefined {
  const sectionCount = oldOf.length;
  const newOfOld = new Int32Array(previous.sectionCount).fill(-1);
  const freshSections: number[] = [];
  let last = -1;
  for (let s = 0; s < sectionCount; s++) {
    const old = oldOf[s]!;
    if (old < 0) freshSections.push(s);
    else if (old <= last) return undefined;
    else newOfOld[(last = old)] = s;
  }
  const added = buildLexicalData(fresh);
  if (added.sectionCount !== freshSections.length) throw new Error('fresh tokens do not match the new sections');
  const lengths = {
    title: new Uint32Array(sectionCount),
    headings: new Uint32Array(sectionCount),
    body: new Uint32Array(sectionCount),
  };
  for (const field of LEXICAL_FIELDS)
    for (let s = 0, f = 0; s < sectionCount; s++)
      lengths[field][s] = oldOf[s]! >= 0 ? previous.lengths[field][oldOf[s]!]! : added.lengths[field][f++]!;
  return {
    sectionCount,
    lengths,
    ...mergePostings(
      { ...previous, renumbered: previous.postingSections.map((old) => newOfOld[old]!) },
      { ...added, renumbered: added.postingSections.map((local) => freshSections[local]!) },
    ),
  };
}

/** Postings with each entry's section in the new numbering (-1: the section is gone). */
type Renumbered = LexicalData & { renumbered: Int32Array };

/** Both sides' postings under the new numbering, term by term (terms sorted as `.sort()` sorts them); terms left with none are dropped. */
function mergePostings(
  a: Renumbered,
  b: Renumbered,
): Pick<LexicalData, 'terms' | 'termStart' | 'postingSections' | 'tf'> {
  const capacity = a.postingSections.length + b.postingSections.length;
  const postingSections = new Int32Array(capacity);
  const tf = { title: new Uint16Array(capacity), headings: new Uint16Array(capacity), body: new Uint16Array(capacity) };
  const terms: string[] = [];
  const termStart: number[] = [0];
  let n = 0;
  const copy = (side: Renumbered, e: number) => {
    postingSections[n] = side.renumbered[e]!;
    tf.title[n] = side.tf.title[e]!;
    tf.headings[n] = side.tf.headings[e]!;
    tf.body[n++] = side.tf.body[e]!;
  };
  for (let i = 0, j = 0; i < a.terms.length || j < b.terms.length; ) {
    const ta = a.terms[i];
    const tb = b.terms[j];
    const term = tb === undefined || (ta !== undefined && ta < tb) ? ta! : tb;
    let ea = ta === term ? a.termStart[i++]! : 0;
    const endA = ta === term ? a.termStart[i]! : 0;
    let eb = tb === term ? b.termStart[j++]! : 0;
    const endB = tb === term ? b.termStart[j]! : 0;
    const before = n;
    for (; ea < endA; ea++) {
      const sa = a.renumbered[ea]!;
      if (sa < 0) continue;
      // Fresh sections before this one go first: both sides are in section order.
      while (eb < endB && b.renumbered[eb]! < sa) copy(b, eb++);
      copy(a, ea);
    }
    while (eb < endB) copy(b, eb++);
    if (n > before) {
      terms.push(term);
      termStart.push(n);
    }
  }
  return {
    terms,
    termStart: Uint32Array.from(termStart),
    postingSections: postingSections.slice(0, n),
    tf: { title: tf.title.slice(0, n), headings: tf.headings.slice(0, n), body: tf.body.slice(0, n) },
  };
}
