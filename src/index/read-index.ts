import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { checkDocumentRanges, checkLexicalReferences, checkVectorLabels } from './check-references.js';
import { ColumnFormatError, PIECE_BYTES } from './columns.js';
import { PiecedFile, PIECES_SUFFIX } from './pieces.js';
import { readError } from './section-store.js';
import {
  BUILD_NAME,
  CURRENT_FILE,
  INDEX_FILES,
  IndexError,
  MANIFEST_FILE,
  type StoredDocument,
  type StoredSection,
} from './format.js';
import { INDEX_FORMAT_VERSION, manifestSchema, type Manifest } from './manifest.js';
import type { LexicalData } from './lexical-data.js';
import { decodePostings } from './postings-file.js';
import { decodeSections } from './sections-file.js';
import { jsonOr } from '../record.js';
import { HnswVectorIndex, type VectorMatrix } from './vector-index.js';

/**
 * Reads index-data: the build CURRENT names, every file checked against the manifest's sha256
 * and every reference checked in range, so a damaged or inconsistent index is refused with one
 * line naming the file (and a running server keeps the index it has) rather than served. These
 * read a build's files whole (what the indexer reuses); a server opens a build with open-index.ts.
 */

/** The live build folder, or undefined when there is no index yet. */
export async function currentBuildDir(indexDir: string): Promise<string | undefined> {
  const pointer = join(indexDir, CURRENT_FILE);
  let name: string;
  try {
    if ((await stat(pointer)).isDirectory()) {
      throw new IndexError(
        `${pointer} is a folder, but it must be a file naming the live build`,
        "remove the folder, then run 'svc-docs index'",
      );
    }
    name = (await readFile(pointer, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof IndexError) throw error;
    throw new IndexError(`${pointer} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!BUILD_NAME.test(name)) throw new IndexError(`${pointer} is corrupt (it should name a build folder)`);
  return join(indexDir, name);
}

export async function readManifest(buildDir: string): Promise<Manifest> {
  const path = join(buildDir, MANIFEST_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : 'is not valid JSON';
    throw new IndexError(`${path} ${why}`);
  }
  const version = (raw as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== INDEX_FORMAT_VERSION) {
    throw new IndexError(
      `${path} has index format ${String(version)} but this svc-docs reads format ${INDEX_FORMAT_VERSION}`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new IndexError(
      `${path} is malformed (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
    );
  return parsed.data;
}

/**
 * A data file read in pieces into one SharedArrayBuffer (views on it are the index's big arrays:
 * no copy, no 2 GiB readFile limit, and worker threads can be handed the same memory), its sha256
 * computed on the way and checked against the manifest.
 */
export async function readChecked(
  buildDir: string,
  manifest: Manifest,
  file: string,
  keep = true,
  /** The file read, when it is not `file` itself (a pieced file's piece list, checked as `file`). */
  read = file,
): Promise<SharedArrayBuffer> {
  const path = join(buildDir, read);
  const expected = manifest.files[file];
  if (expected === undefined) throw new IndexError(`${join(buildDir, MANIFEST_FILE)} lists no checksum for ${file}`);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new IndexError(`${path} is missing`);
  }
  const hash = createHash('sha256');
  let buffer: SharedArrayBuffer;
  try {
    const { size } = await handle.stat();
    // A file only checked (not kept) goes through one piece-sized buffer.
    buffer = new SharedArrayBuffer(keep ? size : Math.min(size, PIECE_BYTES));
    const bytes = new Uint8Array(buffer);
    for (let at = 0; at < size; ) {
      const into = keep ? at : 0;
      const { bytesRead } = await handle.read(bytes, into, Math.min(PIECE_BYTES, size - at), at);
      if (bytesRead === 0) throw new IndexError(`${path} shrank while it was read`);
      hash.update(bytes.subarray(into, into + bytesRead));
      at += bytesRead;
    }
  } catch (error) {
    if (error instanceof IndexError) throw error;
    throw new IndexError(
      `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  } finally {
    await handle.close();
  }
  if (hash.digest('hex') !== expected) throw new IndexError(`${path} is corrupt (checksum mismatch)`);
  return buffer;
}

/**
 * A data file checksummed by piece (pieces.ts), opened for reads by range: its piece list read and
 * checked against the manifest; the pieces are checked as they are read.
 */
export async function openPiecedFile(buildDir: string, manifest: Manifest, file: string): Promise<PiecedFile> {
  const path = join(buildDir, file);
  const digests = new Uint8Array(await readChecked(buildDir, manifest, file, true, file + PIECES_SUFFIX));
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw new IndexError(`${path} is missing`);
  }
  try {
    return new PiecedFile({ path, size, digests });
  } catch (error) {
    throw readError(path, error);
  }
}

/**
 * Reads a binary table, turning a layout problem, a piece that fails its checksum or a failed
 * read into one line naming the file.
 */
export async function layoutChecked<T>(path: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ColumnFormatError) throw new IndexError(`${path} is malformed (${error.message})`);
    if (error instanceof IndexError) throw error;
    throw readError(path, error);
  }
}

/** Refuses a sections file whose count differs from the manifest's. */
export function checkSectionCount(path: string, sections: number, manifest: Manifest): void {
  if (sections !== manifest.sections)
    throw new IndexError(`${path} holds ${sections} sections but the manifest says ${manifest.sections}`);
}

export function parseJson<T>(data: SharedArrayBuffer, schema: z.ZodType<T>, path: string): T {
  const raw = jsonOr(Buffer.from(data).toString('utf8'), () => new IndexError(`${path} is not valid JSON`));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new IndexError(`${path} is malformed`);
  return parsed.data;
}

export function toMatrix(data: SharedArrayBuffer, dims: number, rows: number, path: string): VectorMatrix {
  if (data.byteLength !== rows * dims * 4)
    throw new IndexError(`${path} has ${data.byteLength} bytes, expected ${rows * dims * 4}`);
  return { dims, data: new Float32Array(data) };
}

/** Refuses a file whose references point outside the index, naming it and what is wrong. */
export function refuseBadReferences(path: string, problem: string | undefined): void {
  if (problem !== undefined) throw new IndexError(`${path} refers outside the index (${problem})`);
}

/** A build's manifest, documents and sections (what a reindex compares against and reuses), verified. */
export async function readBuildSections(
  buildDir: string,
): Promise<{ manifest: Manifest; documents: StoredDocument[]; sections: StoredSection[] }> {
  const manifest = await readManifest(buildDir);
  const path = join(buildDir, INDEX_FILES.sections);
  const file = await openPiecedFile(buildDir, manifest, INDEX_FILES.sections);
  const { documents, sections } = await layoutChecked(path, () => decodeSections(file));
  checkSectionCount(path, sections.length, manifest);
  const sectionDoc = sections.map((s) => s.doc);
  refuseBadReferences(path, checkDocumentRanges(documents, sectionDoc));
  return { manifest, documents, sections };
}

/** A build's BM25F postings alone, verified (what a reindex reuses for unchanged documents). */
export async function readBuildLexical(buildDir: string, manifest: Manifest): Promise<LexicalData> {
  const path = join(buildDir, INDEX_FILES.lexical);
  const file = await openPiecedFile(buildDir, manifest, INDEX_FILES.lexical);
  const lexical = await layoutChecked(path, () => decodePostings(file));
  refuseBadReferences(path, checkLexicalReferences(lexical, manifest.sections));
  return lexical;
}

/** A build's section vectors, verified (a reindex carries unchanged sections' vectors over). */
export async function readBuildVectors(buildDir: string, manifest: Manifest): Promise<VectorMatrix> {
  const path = join(buildDir, INDEX_FILES.vectors);
  const data = await readChecked(buildDir, manifest, INDEX_FILES.vectors);
  return toMatrix(data, manifest.model.dimensions, manifest.sections, path);
}

/** Whether the build has an HNSW graph: only builds whose searches read it write one (indexer/build.ts). */
export function hasGraph(manifest: Manifest): boolean {
  return INDEX_FILES.hnsw in manifest.files;
}

/** A build's HNSW graph and its slot → section map, both verified (a reindex updates the graph in place). */
export async function readBuildGraph(buildDir: string, manifest: Manifest): Promise<HnswVectorIndex> {
  const path = join(buildDir, INDEX_FILES.hnsw);
  if (!hasGraph(manifest))
    throw new IndexError(
      `${buildDir} has no HNSW graph: its model's searches never read one`,
      'search it exactly, or build it with a sentence model',
    );
  for (const file of [INDEX_FILES.hnsw, INDEX_FILES.hnswLabels]) await readChecked(buildDir, manifest, file, false);
  let hnsw: HnswVectorIndex;
  try {
    hnsw = await HnswVectorIndex.load(path, manifest.model.dimensions, manifest.sections, manifest.hnsw);
  } catch (error) {
    throw new IndexError(`${path} cannot be loaded (${(error as Error).message})`);
  }
  refuseBadReferences(path, checkVectorLabels(hnsw.labels(), manifest.sections));
  return hnsw;
}
