import type { StoredDocument, StoredSection } from '../../src/index/format.js';
import { buildLexicalData, updateLexicalData } from '../../src/index/build-lexical.js';
import { LEXICAL_FIELDS, type FieldTokens, type LexicalData } from '../../src/index/lexical-data.js';

/**
 * The BM25F statistics of a build. Tokenizing every section was most of a one-file reindex
 * (about 1 s of 2.5 s on the Argo CD corpus), and rebuilding the postings from every section's
 * tokens most of the rest: when the previous build holds a document chunked the same way, its
 * sections' postings are carried over (renumbered) and only new sections are tokenized and merged
 * in (build-lexical.ts), which gives the statistics a full build gives. A sample of the carried
 * sections is tokenized again and compared with their postings: a tokenizer that changed since
 * the previous build makes every section tokenized afresh.
 */

/** One carried section in this many is checked against the tokenizer. */
const SAMPLE_EVERY = 100;

type Tokenize = (doc: StoredDocument, section: StoredSection) => FieldTokens;

/**
 * For each section, its number in the previous build when it is there unchanged, else -1. A
 * document kept as it was keeps all its sections; in an edited one, each section whose title,
 * heading path and text are as before keeps its old number (matched in order, so kept sections
 * stay in the previous build's order): an edit of one paragraph of a long page tokenizes,
 * embeds and links into the graph one section, not the page. Only meaningful when both builds
 * chunked alike.
 */
export function carriedSections(
  documents: readonly StoredDocument[],
  sections: readonly StoredSection[],
  previous: { documents: readonly StoredDocument[]; sections: readonly StoredSection[] },
): Int32Array {
  const oldDoc = new Map(previous.documents.map((d) => [`${d.kb}/${d.path}`, d]));
  const oldOf = new Int32Array(sections.length).fill(-1);
  let last = -1;
  for (const doc of documents) {
    const old = oldDoc.get(`${doc.kb}/${doc.path}`);
    if (old === undefined || old.firstSection <= last) continue;
    if (old.hash === doc.hash && old.title === doc.title && old.sectionCount === doc.sectionCount) {
      for (let p = 0; p < doc.sectionCount; p++) oldOf[doc.firstSection + p] = old.firstSection + p;
    } else if (old.title === doc.title) {
      matchInOrder(doc, sections, old, previous.sections, oldOf);
    }
    if (old.sectionCount > 0) last = old.firstSection + old.sectionCount - 1;
  }
  return oldOf;
}

/** Each section of `doc` to the next section of `old` after the last match with the same headings and text. */
function matchInOrder(
  doc: StoredDocument,
  sections: readonly StoredSection[],
  old: StoredDocument,
  oldSections: readonly StoredSection[],
  oldOf: Int32Array,
): void {
  const key = (s: StoredSection) => `${s.headings.join('\n')}\0${s.text}`;
  const latestFirst = Array.from({ length: old.sectionCount }, (_, p) => old.firstSection + old.sectionCount - 1 - p);
  const at = Map.groupBy(latestFirst, (i) => key(oldSections[i]!));
  let after = -1;
  for (let p = 0; p < doc.sectionCount; p++) {
    const candidates = at.get(key(sections[doc.firstSection + p]!));
    // Latest first in each list: drop those at or before the last match, then take the earliest.
    while (candidates?.length && candidates[candidates.length - 1]! <= after) candidates.pop();
    const match = candidates?.pop();
    if (match !== undefined) oldOf[doc.firstSection + p] = after = match;
  }
}

/** BM25F statistics of `sections`: the previous build's carried over where `previous` allows, else built from every section's tokens. */
export function lexicalData(
  documents: readonly StoredDocument[],
  sections: readonly StoredSection[],
  previous: { lexical: LexicalData; oldOf: Int32Array } | undefined,
  tokenize: Tokenize,
): LexicalData {
  const tokens = (s: number) => tokenize(documents[sections[s]!.doc]!, sections[s]!);
  if (previous && tokenizerAgrees(previous.lexical, previous.oldOf, tokens)) {
    const { lexical, oldOf } = previous;
    const updated = updateLexicalData(
      lexical,
      oldOf,
      pick(oldOf.length, (s) => oldOf[s]! < 0, tokens),
    );
    if (updated) return updated;
  }
  // A generator: each section's tokens are counted and dropped, never all held at once.
  return buildLexicalData(pick(sections.length, () => true, tokens));
}

function* pick(count: number, wanted: (s: number) => boolean, tokens: (s: number) => FieldTokens) {
  for (let s = 0; s < count; s++) if (wanted(s)) yield tokens(s);
}

/** Whether a sample of the carried sections tokenizes today as the previous build's postings say it did. */
function tokenizerAgrees(lexical: LexicalData, oldOf: Int32Array, tokens: (s: number) => FieldTokens): boolean {
  const sampled: number[] = [];
  let carried = 0;
  for (let s = 0; s < oldOf.length; s++) if (oldOf[s]! >= 0 && carried++ % SAMPLE_EVERY === 0) sampled.push(s);
  const before = tokensFromPostings(
    lexical,
    sampled.map((s) => oldOf[s]!),
  );
  return sampled.every((s, i) => before[i] === undefined || sameCounts(before[i], tokens(s)));
}

/**
 * The tokens (grouped by term) of the previous build's sections `wanted`, rebuilt from its
 * postings in one pass over them; undefined for a section whose tokens cannot be (a count at its
 * cap). Only the sampled sections are gathered: indexing every posting by section cost a
 * one-file reindex more than the check itself.
 */
function tokensFromPostings(lexical: LexicalData, wanted: number[]): (FieldTokens | undefined)[] {
  const { termStart, postingSections, tf, lengths, terms } = lexical;
  const out: FieldTokens[] = wanted.map(() => ({ title: [], headings: [], body: [] }));
  // Each wanted section's place in `out`, plus one (0: not wanted).
  const place = new Int32Array(lexical.sectionCount);
  wanted.forEach((section, i) => (place[section] = i + 1));
  for (let t = 0; t < terms.length; t++) {
    for (let e = termStart[t]!; e < termStart[t + 1]!; e++) {
      const i = place[postingSections[e]!]!;
      if (i === 0) continue;
      for (const field of LEXICAL_FIELDS) for (let c = tf[field][e]!; c > 0; c--) out[i - 1]![field].push(terms[t]!);
    }
  }
  return out.map((tokens, i) =>
    LEXICAL_FIELDS.every((field) => tokens[field].length === lengths[field][wanted[i]!]) ? tokens : undefined,
  );
}

function sameCounts(a: FieldTokens, b: FieldTokens): boolean {
  const sorted = (xs: string[]) => [...xs].sort().join('\n');
  return LEXICAL_FIELDS.every((field) => sorted(a[field]) === sorted(b[field]));
}
