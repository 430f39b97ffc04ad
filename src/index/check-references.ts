import type { StoredDocument, StoredSection } from './format.js';
import type { LexicalData } from './lexical-index.js';

/**
 * The references inside an index that checksums cannot vouch for: a build whose files were
 * re-signed after editing (or written by a buggy tool) may be whole yet point outside itself,
 * and the search engine indexes arrays by these numbers. Each function returns the first problem
 * found, as a phrase for an error message, or undefined when every reference is in range.
 */

/** Control characters (newlines included) would let a name forge lines of a rendered result. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** Documents own consecutive, non-overlapping runs of sections that together cover them all, in order. */
export function checkDocumentRanges(documents: StoredDocument[], sections: StoredSection[]): string | undefined {
  let next = 0;
  for (const [d, doc] of documents.entries()) {
    if (doc.firstSection !== next || doc.firstSection + doc.sectionCount > sections.length) {
      return `document ${d} claims sections ${doc.firstSection}–${doc.firstSection + doc.sectionCount - 1}, expected a run starting at ${next} within ${sections.length} sections`;
    }
    for (let s = doc.firstSection; s < doc.firstSection + doc.sectionCount; s++) {
      if (sections[s]!.doc !== d)
        return `section ${s} belongs to document ${sections[s]!.doc}, not to document ${d} whose range holds it`;
    }
    if (CONTROL.test(doc.kb) || CONTROL.test(doc.path) || CONTROL.test(doc.title))
      return `document ${d} has a control character in its name, path or title`;
    next += doc.sectionCount;
  }
  if (next !== sections.length) return `documents cover ${next} sections but there are ${sections.length}`;
  return undefined;
}

/** Every posting names an existing section, every term's run lies inside the postings, and every per-section array has one entry per section. */
export function checkLexicalReferences(lexical: LexicalData, sectionCount: number): string | undefined {
  if (lexical.sectionCount !== sectionCount)
    return `it indexes ${lexical.sectionCount} sections but there are ${sectionCount}`;
  for (const [field, lengths] of Object.entries(lexical.lengths)) {
    if (lengths.length !== sectionCount)
      return `it holds ${lengths.length} ${field} lengths for ${sectionCount} sections`;
  }
  const { termStart, postingSections } = lexical;
  if (termStart.length !== lexical.terms.length + 1)
    return `it holds ${lexical.terms.length} terms but ${termStart.length - 1} posting lists`;
  if (termStart[0] !== 0 || termStart[lexical.terms.length] !== postingSections.length)
    return `its posting lists do not cover its ${postingSections.length} postings`;
  for (let t = 0; t < lexical.terms.length; t++) {
    if (termStart[t + 1]! < termStart[t]!) return `the posting list of term ${t} ends before it starts`;
  }
  for (const [field, tf] of Object.entries(lexical.tf)) {
    if (tf.length !== postingSections.length)
      return `it holds ${tf.length} ${field} counts for ${postingSections.length} postings`;
  }
  for (let t = 0; t < lexical.terms.length; t++) {
    for (let i = termStart[t]!; i < termStart[t + 1]!; i++) {
      const s = postingSections[i]!;
      if (s < 0 || s >= sectionCount) return `term ${t} points at section ${s} of ${sectionCount}`;
    }
  }
  return undefined;
}

/** The HNSW graph's labels are section numbers. */
export function checkVectorLabels(labels: number[], sectionCount: number): string | undefined {
  const bad = labels.find((label) => label < 0 || label >= sectionCount || !Number.isInteger(label));
  return bad === undefined ? undefined : `it holds label ${bad}, outside the ${sectionCount} sections`;
}
