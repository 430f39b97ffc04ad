import type { StoredDocument } from './format.js';
import type { LexicalData } from './lexical-data.js';
import type { PostingsFileParts } from './postings-file.js';

/**
 * The references inside an index that checksums cannot vouch for: a build whose files were
 * re-signed after editing (or written by a buggy tool) may be whole yet point outside itself,
 * and the search engine indexes arrays by these numbers. Each function returns the first problem
 * found, as a phrase for an error message, or undefined when every reference is in range.
 */

/** Control characters (newlines included) would let a name forge lines of a rendered result. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** Documents own consecutive, non-overlapping runs of sections that together cover them all, in order. */
export function checkDocumentRanges(documents: StoredDocument[], sectionDoc: ArrayLike<number>): string | undefined {
  let next = 0;
  for (const [d, doc] of documents.entries()) {
    if (doc.firstSection !== next || doc.firstSection + doc.sectionCount > sectionDoc.length) {
      return `document ${d} claims sections ${doc.firstSection}–${doc.firstSection + doc.sectionCount - 1}, expected a run starting at ${next} within ${sectionDoc.length} sections`;
    }
    for (let s = doc.firstSection; s < doc.firstSection + doc.sectionCount; s++) {
      if (sectionDoc[s] !== d)
        return `section ${s} belongs to document ${sectionDoc[s]}, not to document ${d} whose range holds it`;
    }
    if (CONTROL.test(doc.kb) || CONTROL.test(doc.path) || CONTROL.test(doc.title))
      return `document ${d} has a control character in its name, path or title`;
    next += doc.sectionCount;
  }
  if (next !== sectionDoc.length) return `documents cover ${next} sections but there are ${sectionDoc.length}`;
  return undefined;
}

/** Every posting names an existing section, every term's run lies inside the postings, and every per-section array has one entry per section. */
export function checkLexicalReferences(lexical: LexicalData, sectionCount: number): string | undefined {
  const { termStart, postingSections } = lexical;
  const tfCounts = Object.entries(lexical.tf).map(([field, tf]) => [field, tf.length] as [string, number]);
  const sizes = sizeProblem(lexical, tfCounts, postingSections.length, lexical.terms.length, sectionCount);
  if (sizes !== undefined) return sizes;
  for (let t = 0; t < lexical.terms.length; t++) {
    for (let i = termStart[t]!; i < termStart[t + 1]!; i++) {
      const s = postingSections[i]!;
      if (s < 0 || s >= sectionCount) return `term ${t} points at section ${s} of ${sectionCount}`;
    }
  }
  return undefined;
}

/**
 * postings.bin's tables as a server holds them (their postings' sections are checked when a term's
 * postings are read: postings-source.ts).
 */
export function checkPostingTables(parts: PostingsFileParts, sectionCount: number): string | undefined {
  const tfCounts = Object.entries(parts.tf).map(([field, column]) => [field, column.count] as [string, number]);
  return sizeProblem(parts, tfCounts, parts.sections.count, parts.termOffsets.length - 1, sectionCount);
}

type Tables = Pick<LexicalData, 'sectionCount' | 'lengths' | 'termStart'>;

/** Both readers' size checks: a length per section and a count per posting in each field; posting lists that start at 0, never go back and end at the last posting. */
function sizeProblem(tables: Tables, tfCounts: [string, number][], postings: number, terms: number, sections: number) {
  const { sectionCount: indexed, lengths, termStart } = tables;
  if (indexed !== sections) return `it indexes ${indexed} sections but there are ${sections}`;
  for (const [field, column] of Object.entries(lengths)) {
    if (column.length !== sections) return `it holds ${column.length} ${field} lengths for ${sections} sections`;
  }
  for (const [field, count] of tfCounts) {
    if (count !== postings) return `it holds ${count} ${field} counts for ${postings} postings`;
  }
  if (termStart.length !== terms + 1) return `it holds ${terms} terms but ${termStart.length - 1} posting lists`;
  if (termStart[0] !== 0 || termStart[terms] !== postings)
    return `its posting lists do not cover its ${postings} postings`;
  for (let t = 0; t < terms; t++) {
    if (termStart[t + 1]! < termStart[t]!) return `the posting list of term ${t} ends before it starts`;
  }
  return undefined;
}

/** Each section's parent is an earlier section of its own document, or −1; heading runs never go back. */
export function checkSectionColumns(
  sectionDoc: ArrayLike<number>,
  parents: ArrayLike<number>,
  headingStart: ArrayLike<number>,
): string | undefined {
  for (let s = 0; s < sectionDoc.length; s++) {
    const parent = parents[s]!;
    if (parent < -1 || parent >= s || (parent >= 0 && sectionDoc[parent] !== sectionDoc[s]))
      return `section ${s} names section ${parent} as its parent`;
    if (headingStart[s + 1]! < headingStart[s]!) return `the headings of section ${s} end before they start`;
  }
  return headingStart[0] === 0 ? undefined : 'the headings of section 0 do not start at 0';
}

/** The HNSW graph's labels are section numbers. */
export function checkVectorLabels(labels: number[], sectionCount: number): string | undefined {
  const bad = labels.find((label) => label < 0 || label >= sectionCount || !Number.isInteger(label));
  return bad === undefined ? undefined : `it holds label ${bad}, outside the ${sectionCount} sections`;
}
