import { ColumnReader, magic, numberColumn, stringColumn } from './columns.js';
import type { LexicalData } from './lexical-index.js';

/**
 * postings.bin: the BM25F statistics (LexicalData) as columns (columns.ts): the section count,
 * each field's token counts per section, the sorted terms, where each term's postings start, and
 * per posting its section and its count in each field. Read back as views on the file's buffer.
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
