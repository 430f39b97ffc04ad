import { magic, numberColumn, stringColumn } from './columns.js';
import { type ByteSource, type ColumnAt, FileColumnReader, readNumbers, readStrings } from './file-columns.js';
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

/** The whole statistics, postings included (what a reindex reuses); ColumnFormatError when malformed, references: check-references.ts. */
export async function decodePostings(file: ByteSource): Promise<LexicalData> {
  const { sectionCount, lengths, words, termStart, sections, tf } = await readTables(file);
  const field = (at: ColumnAt) => readNumbers(file, Uint16Array, at);
  return {
    sectionCount,
    lengths,
    terms: await readStrings(file, words),
    termStart,
    postingSections: await readNumbers(file, Int32Array, sections),
    tf: { title: await field(tf.title), headings: await field(tf.headings), body: await field(tf.body) },
  };
}

/**
 * postings.bin as a server holds it: everything but the postings themselves, which are read by
 * term (postings-source.ts). All in shared memory, so worker threads are handed the same.
 */
export interface PostingsFileParts extends Pick<LexicalData, 'sectionCount' | 'lengths' | 'termStart'> {
  file: PiecedFileParts;
  /** The sorted terms as one UTF-8 blob and count + 1 offsets into it. */
  termOffsets: Uint32Array;
  termBlob: Uint8Array;
  sections: ColumnAt;
  tf: Record<LexicalField, ColumnAt>;
}

/** Reads postings.bin's tables but its postings (ColumnFormatError when malformed; references: check-references.ts). */
export async function openPostingsFile(file: PiecedFile): Promise<PostingsFileParts> {
  const { words, ...tables } = await readTables(file);
  const termBlob = new Uint8Array(new SharedArrayBuffer(words.offsets[words.count]!));
  termBlob.set(await file.read(words.blobAt, words.blobAt + termBlob.length));
  return { file: file.parts, ...tables, termOffsets: words.offsets, termBlob };
}

async function readTables(file: ByteSource) {
  const r = new FileColumnReader(file);
  await r.magic(MAGIC);
  const sectionCount = (await r.uint32(1))[0]!;
  const lengths = { title: await r.uint32(), headings: await r.uint32(), body: await r.uint32() };
  const words = await r.lazyStrings();
  const termStart = await r.uint32(words.count + 1);
  const sections = await r.skipNumbers(4);
  const tf = { title: await r.skipNumbers(2), headings: await r.skipNumbers(2), body: await r.skipNumbers(2) };
  r.end();
  return { sectionCount, lengths, words, termStart, sections, tf };
}
