import { SvcDocsError } from '../errors.js';

/**
 * The binary layout shared by sections.bin and postings.bin: an 8-byte magic, then columns in a
 * fixed order, each 4-byte aligned. A number column is its element count (u32) and the elements
 * (little-endian); a string column is its count, count + 1 byte offsets (u32) into a UTF-8 blob,
 * and the blob. Written as a stream of bounded pieces and read column by column (file-columns.ts),
 * so neither side ever makes a string longer than one item (V8 refuses strings over 512 MiB).
 */

/** Bytes per piece a writer yields for string blobs, and per read when loading a file. */
export const PIECE_BYTES = 8 * 2 ** 20;

/** A file whose bytes do not fit its layout (truncated, or written by something else). */
export class ColumnFormatError extends SvcDocsError<'index_unreadable'> {
  override name = 'ColumnFormatError';

  constructor(message: string) {
    super('index_unreadable', message);
  }
}

if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  // Columns are viewed in place, in the machine's byte order; every supported platform is little-endian.
  throw new Error('svc-docs index files need a little-endian machine');
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;
const ZEROS = new Uint8Array(4);

type NumberArray = Uint32Array | Int32Array | Uint16Array;

function bytesOf(array: NumberArray): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function u32(value: number): Uint8Array {
  return bytesOf(Uint32Array.of(value));
}

export function* magic(tag: string): Generator<Uint8Array> {
  const bytes = Buffer.from(tag, 'latin1');
  if (bytes.length !== 8) throw new Error(`a magic must be 8 bytes: ${tag}`);
  yield bytes;
}

export function* numberColumn(array: NumberArray): Generator<Uint8Array> {
  yield u32(array.length);
  yield bytesOf(array);
  const pad = pad4(array.byteLength);
  if (pad > 0) yield ZEROS.subarray(0, pad);
}

/** A string column; `count` strings from `at(i)`, so callers need not build an array of them. */
export function* stringColumn(count: number, at: (i: number) => string): Generator<Uint8Array> {
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const end = offsets[i]! + Buffer.byteLength(at(i), 'utf8');
    if (end > 0xffffffff)
      throw new Error(
        'a string column of the index holds more than 4 GiB of text: split the corpus into knowledge bases of their own',
      );
    offsets[i + 1] = end;
  }
  yield u32(count);
  yield bytesOf(offsets);
  let piece = Buffer.allocUnsafe(PIECE_BYTES);
  let used = 0;
  for (let i = 0; i < count; i++) {
    const s = at(i);
    const size = offsets[i + 1]! - offsets[i]!;
    if (used + size > piece.length) {
      if (used > 0) yield piece.subarray(0, used);
      piece = Buffer.allocUnsafe(Math.max(PIECE_BYTES, size));
      used = 0;
    }
    used += piece.write(s, used, 'utf8');
  }
  if (used > 0) yield piece.subarray(0, used);
  const pad = pad4(offsets[count]!);
  if (pad > 0) yield ZEROS.subarray(0, pad);
}
