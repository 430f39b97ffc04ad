import { ColumnFormatError, magic, numberColumn, stringColumn } from './columns.js';
import { type ByteSource, FileColumnReader, type LazyStrings, readStrings } from './file-columns.js';
import { SECTION_ROLES, type StoredDocument, type StoredSection } from './format.js';
import { parentSections } from './section-parents.js';

/**
 * sections.bin: the document table (kb, path, title, hash, first section, section count, published
 * URL or '') and the section table (document, role, parent section, heading path, text) as columns (columns.ts). The
 * heading paths of all sections form one string column; section s owns headings headingStart[s] …
 * headingStart[s + 1] - 1. The two text columns come last: a server reads everything before them
 * at load and their bytes by range when a result shows them (openSectionsFile).
 */

const MAGIC = 'SVCSEC05';

export function* sectionsPieces(documents: StoredDocument[], sections: StoredSection[]): Generator<Uint8Array> {
  yield* magic(MAGIC);
  yield* stringColumn(documents.length, (d) => documents[d]!.kb);
  yield* stringColumn(documents.length, (d) => documents[d]!.path);
  yield* stringColumn(documents.length, (d) => documents[d]!.title);
  yield* stringColumn(documents.length, (d) => documents[d]!.hash);
  yield* numberColumn(Uint32Array.from(documents, (d) => d.firstSection));
  yield* numberColumn(Uint32Array.from(documents, (d) => d.sectionCount));
  yield* stringColumn(documents.length, (d) => documents[d]!.url ?? '');
  const doc = Uint32Array.from(sections, (s) => s.doc);
  yield* numberColumn(doc);
  yield* numberColumn(Uint32Array.from(sections, (s) => SECTION_ROLES.indexOf(s.role)));
  const headingPaths = sections.map((s) => s.headings);
  yield* numberColumn(parentSections(headingPaths, doc));
  const headingStart = new Uint32Array(sections.length + 1);
  sections.forEach((s, i) => (headingStart[i + 1] = headingStart[i]! + s.headings.length));
  yield* numberColumn(headingStart);
  const headings = sections.flatMap((s) => s.headings);
  yield* stringColumn(headings.length, (h) => headings[h]!);
  yield* stringColumn(sections.length, (s) => sections[s]!.text);
}

/** The whole tables, text included (what a reindex reuses); ColumnFormatError when malformed. */
export async function decodeSections(
  file: ByteSource,
): Promise<{ documents: StoredDocument[]; sections: StoredSection[] }> {
  const columns = await openSectionsFile(file);
  const headings = await readStrings(file, columns.headings);
  const text = await readStrings(file, columns.text);
  const { doc, roles, headingStart } = columns;
  const sections = Array.from(
    doc,
    (d, s): StoredSection => ({
      doc: d,
      headings: headings.slice(headingStart[s], headingStart[s + 1]),
      text: text[s]!,
      role: SECTION_ROLES[roles[s]!]!,
    }),
  );
  return { documents: columns.documents, sections };
}

/** sections.bin as a server holds it: every table but the text, which stays on disk. */
export interface SectionColumns {
  documents: StoredDocument[];
  /** By section: its document, its role (index into SECTION_ROLES), its parent section or −1. */
  doc: Int32Array;
  roles: Uint8Array;
  parents: Int32Array;
  headingStart: Uint32Array;
  headings: LazyStrings;
  text: LazyStrings;
}

/** Reads the tables of sections.bin but the heading and text blobs (ColumnFormatError when malformed). */
export async function openSectionsFile(file: ByteSource): Promise<SectionColumns> {
  const r = new FileColumnReader(file);
  await r.magic(MAGIC);
  const kb = await r.strings();
  const n = kb.length;
  const path = await r.strings(n);
  const title = await r.strings(n);
  const hash = await r.strings(n);
  const firstSection = await r.uint32(n);
  const sectionCount = await r.uint32(n);
  const url = await r.strings(n);
  const doc = await r.int32();
  const sections = doc.length;
  const role = await r.uint32(sections);
  const parents = await r.int32(sections);
  const headingStart = await r.uint32(sections + 1);
  const headings = await r.lazyStrings(headingStart[sections]);
  const text = await r.lazyStrings(sections);
  r.end();
  const roles = new Uint8Array(new SharedArrayBuffer(sections));
  for (let s = 0; s < sections; s++) {
    if (SECTION_ROLES[role[s]!] === undefined)
      throw new ColumnFormatError(`section ${s} has an unknown role ${role[s]}`);
    roles[s] = role[s]!;
  }
  const documents = kb.map(
    (k, d): StoredDocument => ({
      kb: k,
      path: path[d]!,
      title: title[d]!,
      hash: hash[d]!,
      firstSection: firstSection[d]!,
      sectionCount: sectionCount[d]!,
      ...(url[d] ? { url: url[d] } : {}),
    }),
  );
  return { documents, doc, roles, parents, headingStart, headings, text };
}
