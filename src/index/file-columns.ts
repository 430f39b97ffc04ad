import { ColumnFormatError } from './columns.js';

/**
 * Reads the columns of a file written by columns.ts in place, in order, without reading the file
 * whole: the small columns (counts, offsets, per-section numbers) are read into shared memory at
 * load, verified piece by piece; the big ones (section text, postings) are only located, for
 * reads by range when a query needs them, or read whole after (readStrings, readNumbers: what a
 * reindex reuses).
 */

/** Where the bytes come from: a data file checked by piece (pieces.ts' PiecedFile), or bytes in memory (tests). */
export interface ByteSource {
  readonly size: number;
  read(start: number, end: number): Promise<Buffer>;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** Where a column not read at load lies in the file. */
export interface ColumnAt {
  count: number;
  /** Byte offset of its first element. */
  at: number;
}

/** A string column located but not read: its offsets, and where its UTF-8 blob starts. */
export interface LazyStrings {
  count: number;
  /** count + 1 byte offsets into the blob. */
  offsets: Uint32Array;
  blobAt: number;
}

function sharedCopy<T extends Uint32Array | Int32Array | Uint16Array>(
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  bytes: Buffer,
): T {
  const buffer = new SharedArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return new Kind(buffer);
}

/** A located string column, read and decoded whole. */
export async function readStrings(file: ByteSource, { count, offsets, blobAt }: LazyStrings): Promise<string[]> {
  const blob = await file.read(blobAt, blobAt + offsets[count]!);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = blob.toString('utf8', offsets[i]!, offsets[i + 1]!);
  return out;
}

/** A located number column, read whole into shared memory. */
export async function readNumbers<T extends Int32Array | Uint16Array>(
  file: ByteSource,
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  { count, at }: ColumnAt,
): Promise<T> {
  return sharedCopy(Kind, await file.read(at, at + count * Kind.BYTES_PER_ELEMENT));
}

export class FileColumnReader {
  private at = 0;

  constructor(private readonly file: ByteSource) {}

  async magic(tag: string): Promise<void> {
    const bytes = await this.readTaken(8);
    if (bytes.toString('latin1') !== tag) throw new ColumnFormatError(`it does not start with ${tag}`);
  }

  async uint32(expected?: number): Promise<Uint32Array> {
    return sharedCopy(Uint32Array, await this.numbers(4, expected));
  }

  async int32(expected?: number): Promise<Int32Array> {
    return sharedCopy(Int32Array, await this.numbers(4, expected));
  }

  /** A number column located, not read (`bytesPer` per element). */
  async skipNumbers(bytesPer: number, expected?: number): Promise<ColumnAt> {
    const count = await this.count(expected);
    return { count, at: this.take(bytesPer * count) };
  }

  /** A string column read and decoded whole (the document table's names and titles). */
  async strings(expected?: number): Promise<string[]> {
    return readStrings(this.file, await this.lazyStrings(expected));
  }

  /** A string column's offsets read, its blob only located. */
  async lazyStrings(expected?: number): Promise<LazyStrings> {
    const count = await this.count(expected);
    const offsets = sharedCopy(Uint32Array, await this.readTaken(4 * (count + 1)));
    checkOffsets(offsets, count);
    return { count, offsets, blobAt: this.take(offsets[count]!) };
  }

  /** The whole file was read: nothing is left over. */
  end(): void {
    if (this.at !== this.file.size)
      throw new ColumnFormatError(`${this.file.size - this.at} bytes follow its last column`);
  }

  private async numbers(bytesPer: number, expected: number | undefined): Promise<Buffer> {
    return this.readTaken(bytesPer * (await this.count(expected)));
  }

  private async count(expected: number | undefined): Promise<number> {
    const n = (await this.readTaken(4)).readUInt32LE(0);
    if (expected !== undefined && n !== expected)
      throw new ColumnFormatError(`a column holds ${n} entries where ${expected} are expected`);
    return n;
  }

  /** Claims `size` bytes and reads them. */
  private readTaken(size: number): Promise<Buffer> {
    const start = this.take(size);
    return this.file.read(start, start + size);
  }

  /** Claims `size` bytes and the padding after them; returns where they start. */
  private take(size: number): number {
    const start = this.at;
    const end = start + size + pad4(size);
    if (end > this.file.size) throw new ColumnFormatError(`it ends ${end - this.file.size} bytes early (truncated)`);
    this.at = end;
    return start;
  }
}

/** Offsets that start at 0 and never go back. */
export function checkOffsets(offsets: Uint32Array, count: number): void {
  if (offsets[0] !== 0) throw new ColumnFormatError('a string column does not start at 0');
  for (let i = 0; i < count; i++) {
    if (offsets[i + 1]! < offsets[i]!)
      throw new ColumnFormatError(`string ${i + 1} of a column starts before string ${i} ends`);
  }
}
