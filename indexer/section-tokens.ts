import type { StoredDocument, StoredSection } from '../src/index/format.js';
import { LEXICAL_FIELDS, type FieldTokens, type LexicalData } from '../src/index/lexical-index.js';

/**
 * Each section's field tokens, for the BM25F statistics. Tokenizing every section was most of a
 * one-file reindex (about 1 s of 2.5 s on the Argo CD corpus); a section of a document the
 * previous build already had, chunked the same way, gets its tokens back from that build's
 * postings instead. BM25F needs only how often each term occurs in each field, so tokens rebuilt
 * from the counts (in another order) give the same statistics. A sample of the reused sections
 * is tokenized again and compared: a tokenizer that changed since the previous build makes every
 * section tokenized afresh.
 */

export interface PreviousTokens {
  documents: readonly StoredDocument[];
  lexical: LexicalData;
}

/** One reused section in this many is checked against the tokenizer. */
const SAMPLE_EVERY = 50;

type Tokenize = (doc: StoredDocument, section: StoredSection) => FieldTokens;

/** In section order, one at a time (a generator: never every section's tokens at once). */
export function* sectionTokens(
  documents: readonly StoredDocument[],
  sections: readonly StoredSection[],
  previous: PreviousTokens | undefined,
  tokenize: Tokenize,
): Generator<FieldTokens> {
  const fromPrevious = previous ? reusedTokens(documents, sections, previous, tokenize) : undefined;
  for (let i = 0; i < sections.length; i++)
    yield fromPrevious?.(i) ?? tokenize(documents[sections[i]!.doc]!, sections[i]!);
}

/** Section → its tokens from the previous build, or undefined when it has none; undefined altogether when the sample disagrees. */
function reusedTokens(
  documents: readonly StoredDocument[],
  sections: readonly StoredSection[],
  previous: PreviousTokens,
  tokenize: Tokenize,
) {
  const key = (d: StoredDocument) => `${d.kb}/${d.path}\0${d.hash}\0${d.title}\0${d.sectionCount}`;
  const oldFirst = new Map(previous.documents.map((d) => [key(d), d.firstSection]));
  const oldOf = new Int32Array(sections.length).fill(-1);
  for (const doc of documents) {
    const first = oldFirst.get(key(doc));
    if (first !== undefined) for (let p = 0; p < doc.sectionCount; p++) oldOf[doc.firstSection + p] = first + p;
  }
  const counts = countsBySection(previous.lexical);
  let checked = 0;
  for (let i = 0; i < sections.length; i++) {
    if (oldOf[i]! < 0 || checked++ % SAMPLE_EVERY !== 0) continue;
    const tokens = counts(oldOf[i]!);
    if (tokens && !sameCounts(tokens, tokenize(documents[sections[i]!.doc]!, sections[i]!))) return undefined;
  }
  return (section: number) => (oldOf[section]! < 0 ? undefined : counts(oldOf[section]!));
}

/** A section's tokens rebuilt from the postings (grouped by term), or undefined when they cannot be (a count at its cap). */
function countsBySection(lexical: LexicalData): (section: number) => FieldTokens | undefined {
  const { termStart, postingSections, tf, lengths, terms } = lexical;
  const n = postingSections.length;
  const entryTerm = new Int32Array(n);
  for (let t = 0; t < terms.length; t++) entryTerm.fill(t, termStart[t]!, termStart[t + 1]!);
  // Entries by section: a counting sort on the section number.
  const start = new Int32Array(lexical.sectionCount + 1);
  for (let i = 0; i < n; i++) start[postingSections[i]! + 1]!++;
  for (let s = 0; s < lexical.sectionCount; s++) start[s + 1]! += start[s]!;
  const next = start.slice(0, lexical.sectionCount);
  const bySection = new Int32Array(n);
  for (let i = 0; i < n; i++) bySection[next[postingSections[i]!]!++] = i;
  return (section) => {
    const tokens: FieldTokens = { title: [], headings: [], body: [] };
    for (let k = start[section]!; k < start[section + 1]!; k++) {
      const e = bySection[k]!;
      for (const field of LEXICAL_FIELDS)
        for (let c = tf[field][e]!; c > 0; c--) tokens[field].push(terms[entryTerm[e]!]!);
    }
    return LEXICAL_FIELDS.every((field) => tokens[field].length === lengths[field][section]) ? tokens : undefined;
  };
}

function sameCounts(a: FieldTokens, b: FieldTokens): boolean {
  const sorted = (xs: string[]) => [...xs].sort().join('\n');
  return LEXICAL_FIELDS.every((field) => sorted(a[field]) === sorted(b[field]));
}
