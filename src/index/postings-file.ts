import { ColumnReader, magic, numberColumn, stringColumn } from './columns.js';
import { type ColumnAt, FileColumnReader } from './file-columns.js';
import type { LexicalData, LexicalField } from './lexical-data.js';
import type { PiecedFile, PiecedFileParts } from './pieces.js';

/**
 * postings.bin: the BM25F statistics (LexicalData) as columns (columns.ts): the section count,
 * each field's token counts per section, the sorted terms, where each term's postings start, and
 * per posting its section and its count in each field. The indexer reads it whole (decodePostings);
 * a server reads all but the postings at load and a term's postings when a query has the term
 * (openPostingsFile).
 */

const MAGIC = 'SVCPST02';

export function* postingsPieces(data: LexicalData): Generator<Uint8Array> {
  yield* magic(MAGIC);
  yield* numberColumn(Uint32Array.of(data.sectionCount));
  yield* numberColumn(data.lengths.title);
  yield* numberColumn(data.lengths.headings);
  yield* numberColumn(data.lengths.body);
  yield* stringColumn(data.terms.length, (t) => data.terms[t]!);
  yield* numberColumn(data.termStart);
  yield* numberColumn(data.postingSections);
  yield* numberColumn(data.tf.title);
  yield* numberColumn(data.tf.headings);
  yield* numberColumn(data.tf.body);
}

/** Throws ColumnFormatError when the bytes do not hold the statistics; their references are checked by check-references.ts. */
export function decodePostings(buffer: ArrayBuffer | SharedArrayBuffer): LexicalData {
  const r = new ColumnReader(buffer);
  r.magic(MAGIC);
  const sectionCount = r.uint32(1)[0]!;
  const lengths = { title: r.uint32(), headings: r.uint32(), body: r.uint32() };
  const words = r.strings();
  const termStart = r.uint32(words.count + 1);
  const postingSections = r.int32();
  const n = postingSections.length;
  const tf = { title: r.uint16(n), headings: r.uint16(n), body: r.uint16(n) };
  r.end();
  const terms = new Array<string>(words.count);
  for (let t = 0; t < words.count; t++) terms[t] = words.get(t);
  return { sectionCount, lengths, terms, termStart, postingSections, tf };
}

/**
 * postings.bin as a server holds it: everything but the postings themselves, which are read by
 * term (postings-source.ts). All in shared memory, so worker threads are handed the same.
 */
export interface PostingsFileParts {
  file: PiecedFileParts;
  sectionCount: number;
  lengths: Record<LexicalField, Uint32Array>;
  /** The sorted terms as one UTF-8 blob and count + 1 offsets into it. */
  termOffsets: Uint32Array;
  termBlob: Uint8Array;
  termStart: Uint32Array;
  sections: ColumnAt;
  tf: Record<LexicalField, ColumnAt>;
}

/** Reads postings.bin's tables but its postings (ColumnFormatError when malformed; references: check-references.ts). */
export async function openPostingsFile(file: PiecedFile): Promise<PostingsFileParts> {
  const r = new FileColumnReader(file);
  await r.magic(MAGIC);
  const sectionCount = (await r.uint32(1))[0]!;
  const lengths = { title: await r.uint32(), headings: await r.uint32(), body: await r.uint32() };
  const words = await r.lazyStrings();
  const termBlob = new Uint8Array(new SharedArrayBuffer(words.offsets[words.count]!));
  termBlob.set(await file.read(words.blobAt, words.blobAt + termBlob.length));
  const termStart = await r.uint32(words.count + 1);
  const sections = await r.skipNumbers(4);
  const tf = { title: await r.skipNumbers(2), headings: await r.skipNumbers(2), body: await r.skipNumbers(2) };
  r.end();
  return { file: file.parts, sectionCount, lengths, termOffsets: words.offsets, termBlob, termStart, sections, tf };
}
