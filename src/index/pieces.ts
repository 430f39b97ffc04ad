import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Checksums by piece, for the data files a server reads in part (sections.bin, postings.bin): each
 * 4 KiB piece of the file has its own sha256, listed in `<file>.pieces` (32 bytes per piece, under
 * 1 % of the file), and the manifest's checksum for the file is the sha256 of that list. A reader
 * checks the list once against the manifest, then every piece it reads against the list, when it
 * reads it: a server reads a million-section index in seconds and still never uses a byte it has
 * not verified. Pieces are small because a result's window is a few kilobytes of text: with 64 KiB
 * pieces, hashing what a search shows cost it several milliseconds.
 */

export const CHECK_PIECE_BYTES = 4 * 1024;
export const PIECES_SUFFIX = '.pieces';
const DIGEST_BYTES = 32;
/** Bytes per read when a file is read whole: a whole number of pieces. */
const READ_BYTES = 2048 * CHECK_PIECE_BYTES;

/** A byte range that does not match its checksum: the file was damaged after it was written. */
export class PieceMismatchError extends Error {
  override readonly name = 'PieceMismatchError';
}

/** The piece digests of a stream of bytes, fed in any chunks (the writer's side). */
export class PieceHasher {
  private readonly digests: Buffer[] = [];
  private hash = createHash('sha256');
  private filled = 0;

  update(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(CHECK_PIECE_BYTES - this.filled, bytes.length - at);
      this.hash.update(bytes.subarray(at, at + take));
      this.filled += take;
      at += take;
      if (this.filled === CHECK_PIECE_BYTES) this.finishPiece();
    }
  }

  /** The list (`<file>.pieces`): every piece's digest, the last piece possibly short. */
  list(): Buffer {
    if (this.filled > 0) this.finishPiece();
    return Buffer.concat(this.digests);
  }

  private finishPiece(): void {
    this.digests.push(this.hash.digest());
    this.hash = createHash('sha256');
    this.filled = 0;
  }
}

/**
 * A data file's checksum as its manifest records it: the sha256 of its bytes, or for a file
 * checksummed by piece, the sha256 of its piece list (computed from the file itself).
 */
export async function fileChecksum(path: string, pieced: boolean): Promise<string> {
  const handle = await open(path, 'r');
  const whole = createHash('sha256');
  const pieces = new PieceHasher();
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) break;
      if (pieced) pieces.update(buffer.subarray(0, bytesRead));
      else whole.update(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return pieced ? createHash('sha256').update(pieces.list()).digest('hex') : whole.digest('hex');
}

/** The shareable description of a pieced file: what a worker thread needs to read it too. */
export interface PiecedFileParts {
  path: string;
  size: number;
  /** The piece list, already checked against the manifest. */
  digests: Uint8Array;
}

/**
 * A data file read by byte range, each piece checked against its digest the first time this
 * reader reads it. The file is opened on the first read and kept open (a build folder deleted
 * meanwhile stays readable) until close(); a read after close() opens it again.
 *
 * A piece that matched once is not hashed again: a build folder is written once and never changed
 * in place (a new build goes to a new folder), so a second read of the piece returns the bytes the
 * first one verified. Hashing the same window's pieces on every search was about 2 % of a served
 * call's CPU (docs/benchmarks.md, the protocol path). One bit per piece: 32 KB at a gigabyte.
 */
export class PiecedFile {
  private fd: number | undefined;
  /** Bit p set: piece p has matched its digest. */
  private readonly verified: Uint8Array;

  constructor(readonly parts: PiecedFileParts) {
    const pieces = Math.ceil(parts.size / CHECK_PIECE_BYTES);
    if (parts.digests.length !== pieces * DIGEST_BYTES)
      throw new PieceMismatchError(
        `its piece list holds ${parts.digests.length / DIGEST_BYTES} checksums for ${pieces} pieces`,
      );
    this.verified = new Uint8Array(Math.ceil(pieces / 8));
  }

  get size(): number {
    return this.parts.size;
  }

  /** Bytes `start` … `end - 1`, verified (throws PieceMismatchError, or the read's own error). */
  readSync(start: number, end: number): Buffer {
    if (start === end) return Buffer.alloc(0);
    const [from, to] = this.pieceRange(start, end);
    const bytes = Buffer.allocUnsafe(to - from);
    this.fd ??= this.openChecked();
    for (let at = 0; at < bytes.length; ) {
      const got = readSync(this.fd, bytes, at, bytes.length - at, from + at);
      if (got === 0) throw new PieceMismatchError(`it ends at byte ${from + at}, before ${to}`);
      at += got;
    }
    this.verify(bytes, from);
    return bytes.subarray(start - from, end - from);
  }

  /** readSync without blocking the thread: for loading, while a server may still answer from another index. */
  async read(start: number, end: number): Promise<Buffer> {
    if (start === end) return Buffer.alloc(0);
    const [from, to] = this.pieceRange(start, end);
    const bytes = Buffer.allocUnsafe(to - from);
    const handle = await open(this.parts.path, 'r');
    try {
      for (let at = 0; at < bytes.length; ) {
        const { bytesRead } = await handle.read(bytes, at, bytes.length - at, from + at);
        if (bytesRead === 0) throw new PieceMismatchError(`it ends at byte ${from + at}, before ${to}`);
        at += bytesRead;
      }
    } finally {
      await handle.close();
    }
    this.verify(bytes, from);
    return bytes.subarray(start - from, end - from);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openChecked(): number {
    const fd = openSync(this.parts.path, 'r');
    if (fstatSync(fd).size !== this.parts.size) {
      closeSync(fd);
      throw new PieceMismatchError(`it is no longer ${this.parts.size} bytes long`);
    }
    return fd;
  }

  /** The whole pieces covering `start` … `end`. */
  private pieceRange(start: number, end: number): [number, number] {
    if (start < 0 || end > this.parts.size || start > end)
      throw new PieceMismatchError(`bytes ${start}–${end} lie outside its ${this.parts.size}`);
    const from = start - (start % CHECK_PIECE_BYTES);
    const to = Math.min(this.parts.size, Math.ceil(end / CHECK_PIECE_BYTES) * CHECK_PIECE_BYTES);
    return [from, Math.max(from, to)];
  }

  private verify(bytes: Uint8Array, from: number): void {
    const { digests } = this.parts;
    const verified = this.verified;
    for (let at = 0; at < bytes.length; at += CHECK_PIECE_BYTES) {
      const piece = (from + at) / CHECK_PIECE_BYTES;
      const bit = 1 << (piece & 7);
      if ((verified[piece >> 3]! & bit) !== 0) continue;
      const digest = createHash('sha256')
        .update(bytes.subarray(at, at + CHECK_PIECE_BYTES))
        .digest();
      if (!digest.equals(digests.subarray(piece * DIGEST_BYTES, (piece + 1) * DIGEST_BYTES)))
        throw new PieceMismatchError(
          `bytes ${from + at}–${from + Math.min(bytes.length, at + CHECK_PIECE_BYTES)} do not match their checksum`,
        );
      verified[piece >> 3]! |= bit;
    }
  }
}
