import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/**
 * Reading only regular files. Opening a FIFO for reading waits for a writer, and reading a
 * character device (a terminal, /dev/zero) may never end: a FIFO named `kb.json` hung the indexer
 * with no word. Whatever else a corpus holds is named and refused instead.
 */

/** A Dirent or a Stats: both say what kind of file they describe. */
interface FileKind {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isDirectory(): boolean;
}

/** What a file that is not a regular file is, in words for a message; undefined for a regular file (or a link). */
export function specialKind(entry: FileKind): string | undefined {
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  if (entry.isDirectory()) return 'a folder';
  return undefined;
}

export class SpecialFileError extends Error {
  override readonly name = 'SpecialFileError';
  constructor(
    readonly path: string,
    /** What it is instead, in words (specialKind). */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
  }
}

/**
 * The file's bytes, if it is a regular file when opened; else a SpecialFileError. Opened without
 * blocking (a FIFO opens at once, with or without a writer) and checked on the open descriptor, so
 * a file swapped for a FIFO after it was listed is refused too.
 */
export function readRegularFile(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const kind = specialKind(fstatSync(fd));
    if (kind !== undefined) throw new SpecialFileError(path, kind);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
