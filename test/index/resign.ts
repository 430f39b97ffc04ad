import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ByteSource } from '../../src/index/file-columns.js';
import { PIECED_FILES, type StoredDocument, type StoredSection } from '../../src/index/format.js';
import { PieceHasher, PIECES_SUFFIX } from '../../src/index/pieces.js';
import type { LexicalData } from '../../src/index/lexical-data.js';
import { decodePostings, postingsPieces } from '../../src/index/postings-file.js';
import { decodeSections, sectionsPieces } from '../../src/index/sections-file.js';

/**
 * Edits a data file of a build and records its new checksum in the manifest, as a careless tool
 * or an attacker with write access would: what the reference checks are for.
 */

/** A file's bytes in an ArrayBuffer of their own (readFileSync may hand back a slice of a shared pool). */
export function fileBuffer(path: string): ArrayBuffer {
  const data = readFileSync(path);
  const buffer = new ArrayBuffer(data.length);
  new Uint8Array(buffer).set(data);
  return buffer;
}

/** Writes `data` as `file` and records its checksum as the writer would: of its bytes, or of its piece list (written too). */
export function resign(build: string, file: string, data: Uint8Array): void {
  writeFileSync(join(build, file), data);
  const path = join(build, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, string> };
  let signed: Uint8Array = data;
  if (PIECED_FILES.has(file)) {
    const pieces = new PieceHasher();
    pieces.update(data);
    signed = pieces.list();
    writeFileSync(join(build, file + PIECES_SUFFIX), signed);
  }
  manifest.files[file] = createHash('sha256').update(signed).digest('hex');
  writeFileSync(path, JSON.stringify(manifest));
}

/** Bytes in memory as the column readers take a file. */
export function byteSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (start, end) => Buffer.from(bytes.subarray(start, end)) };
}

export async function resignSections(
  build: string,
  edit: (tables: { documents: StoredDocument[]; sections: StoredSection[] }) => void,
): Promise<void> {
  const tables = await decodeSections(byteSource(readFileSync(join(build, 'sections.bin'))));
  edit(tables);
  resign(build, 'sections.bin', Buffer.concat([...sectionsPieces(tables.documents, tables.sections)]));
}

export async function resignPostings(build: string, edit: (data: LexicalData) => void): Promise<void> {
  const data = await decodePostings(byteSource(readFileSync(join(build, 'postings.bin'))));
  edit(data);
  resign(build, 'postings.bin', Buffer.concat([...postingsPieces(data)]));
}
