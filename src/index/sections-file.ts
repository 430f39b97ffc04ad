import { ColumnFormatError, ColumnReader, magic, numberColumn, stringColumn } from './columns.js';
import { SECTION_ROLES, type StoredDocument, type StoredSection } from './format.js';

/**
 * sections.bin: the document table (kb, path, title, hash, first section, section count, public
 * URL or '') and the
 * section table (document, heading path, text, role) as columns (columns.ts). The heading paths of all
 * sections form one string column; section s owns headings headingStart[s] … headingStart[s + 1] - 1.
 */

const MAGIC = 'SVCSEC04';

export function* sectionsPieces(documents: StoredDocument[], sections: StoredSection[]): Generator<Uint8Array> {
  yield* magic(MAGIC);
  yield* stringColumn(documents.length, (d) => documents[d]!.kb);
  yield* stringColumn(documents.length, (d) => documents[d]!.path);
  yield* stringColumn(documents.length, (d) => documents[d]!.title);
  yield* stringColumn(documents.length, (d) => documents[d]!.hash);
  yield* numberColumn(Uint32Array.from(documents, (d) => d.firstSection));
  yield* numberColumn(Uint32Array.from(documents, (d) => d.sectionCount));
  yield* stringColumn(documents.length, (d) => documents[d]!.url ?? '');
  yield* numberColumn(Uint32Array.from(sections, (s) => s.doc));
  const headingStart = new Uint32Array(sections.length + 1);
  sections.forEach((s, i) => (headingStart[i + 1] = headingStart[i]! + s.headings.length));
  yield* numberColumn(headingStart);
  const headings = sections.flatMap((s) => s.headings);
  yield* stringColumn(headings.length, (h) => headings[h]!);
  yield* stringColumn(sections.length, (s) => sections[s]!.text);
  yield* numberColumn(Uint32Array.from(sections, (s) => SECTION_ROLES.indexOf(s.role)));
}

/** Throws ColumnFormatError when the bytes do not hold the tables. */
export function decodeSections(buffer: ArrayBuffer | SharedArrayBuffer): {
  documents: StoredDocument[];
  sections: StoredSection[];
} {
  const r = new ColumnReader(buffer);
  r.magic(MAGIC);
  const kb = r.strings();
  const n = kb.count;
  const [path, title, hash] = [r.strings(n), r.strings(n), r.strings(n)];
  const [firstSection, sectionCount] = [r.uint32(n), r.uint32(n)];
  const url = r.strings(n);
  const doc = r.uint32();
  const headingStart = r.uint32(doc.length + 1);
  const headings = r.strings(headingStart[doc.length]);
  const text = r.strings(doc.length);
  const role = r.uint32(doc.length);
  r.end();
  const documents = new Array<StoredDocument>(n);
  for (let d = 0; d < n; d++) {
    documents[d] = {
      kb: kb.get(d),
      path: path.get(d),
      title: title.get(d),
      hash: hash.get(d),
      firstSection: firstSection[d]!,
      sectionCount: sectionCount[d]!,
    };
    const published = url.get(d);
    if (published !== '') documents[d]!.url = published;
  }
  const sections = new Array<StoredSection>(doc.length);
  for (let s = 0; s < doc.length; s++) {
    const own: string[] = [];
    for (let h = headingStart[s]!; h < headingStart[s + 1]!; h++) own.push(headings.get(h));
    const kind = SECTION_ROLES[role[s]!];
    if (kind === undefined) throw new ColumnFormatError(`section ${s} has an unknown role ${role[s]}`);
    sections[s] = { doc: doc[s]!, headings: own, text: text.get(s), role: kind };
  }
  return { documents, sections };
}
