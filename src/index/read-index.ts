import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { checkDocumentRanges, checkLexicalReferences, checkVectorLabels } from './check-references.js';
import { ColumnFormatError, PIECE_BYTES } from './columns.js';
import {
  BUILD_NAME,
  CURRENT_FILE,
  INDEX_FILES,
  IndexError,
  MANIFEST_FILE,
  termsFileSchema,
  type IndexContent,
  type StoredDocument,
  type StoredSection,
} from './format.js';
import { INDEX_FORMAT_VERSION, manifestSchema, type Manifest } from './manifest.js';
import type { LexicalData } from './lexical-index.js';
import { decodePostings } from './postings-file.js';
import { decodeSections } from './sections-file.js';
import { HnswVectorIndex, type VectorMatrix } from './vector-index.js';

/**
 * Reads index-data: the build CURRENT names, every file checked against the manifest's sha256
 * and every reference checked in range, so a damaged or inconsistent index is refused with one
 * line naming the file (and a running server keeps the index it has) rather than served.
 */

/** A build as read, without its HNSW graph (what a process that never searches the graph itself needs). */
export interface IndexWithoutGraph extends IndexContent {
  manifest: Manifest;
  /** The build folder it was read from. */
  buildDir: string;
}

export interface LoadedIndex extends IndexWithoutGraph {
  hnsw: HnswVectorIndex;
}

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
async function readChecked(
  buildDir: string,
  manifest: Manifest,
  file: string,
  keep = true,
): Promise<SharedArrayBuffer> {
  const path = join(buildDir, file);
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

/** Decodes a binary table, turning a layout problem into one line naming the file. */
function decodeBinary<T>(buffer: SharedArrayBuffer, decode: (buffer: SharedArrayBuffer) => T, path: string): T {
  try {
    return decode(buffer);
  } catch (error) {
    if (error instanceof ColumnFormatError) throw new IndexError(`${path} is malformed (${error.message})`);
    throw error;
  }
}

function parseJson<T>(data: SharedArrayBuffer, schema: z.ZodType<T>, path: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    throw new IndexError(`${path} is not valid JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new IndexError(`${path} is malformed`);
  return parsed.data;
}

function toMatrix(data: SharedArrayBuffer, dims: number, rows: number, path: string): VectorMatrix {
  if (data.byteLength !== rows * dims * 4)
    throw new IndexError(`${path} has ${data.byteLength} bytes, expected ${rows * dims * 4}`);
  return { dims, data: new Float32Array(data) };
}

/** Refuses a file whose references point outside the index, naming it and what is wrong. */
function refuseBadReferences(path: string, problem: string | undefined): void {
  if (problem !== undefined) throw new IndexError(`${path} refers outside the index (${problem})`);
}

/** Loads and verifies the current build: every file present, intact and consistent. */
export async function readIndex(indexDir: string): Promise<LoadedIndex> {
  const index = await readIndexWithoutGraph(indexDir);
  return { ...index, hnsw: await readBuildGraph(index.buildDir, index.manifest) };
}

/**
 * readIndex without the HNSW graph, which is neither read nor checked: for a search pool's main
 * thread, whose workers load the graph themselves where their searches read it.
 */
export async function readIndexWithoutGraph(indexDir: string): Promise<IndexWithoutGraph> {
  const buildDir = await currentBuildDir(indexDir);
  if (buildDir === undefined)
    throw new IndexError(
      `no index in ${indexDir} (no ${CURRENT_FILE} file)`,
      "run 'svc-docs index' first",
      'index_missing',
    );
  const { manifest, documents, sections } = await readBuildSections(buildDir);
  const lexical = await readBuildLexical(buildDir, manifest);
  const vectors = await readBuildVectors(buildDir, manifest);
  const expansion = await readBuildExpansion(buildDir, manifest);
  return { manifest, documents, sections, vectors, lexical, expansion, buildDir };
}

/** A build's manifest, documents and sections (what a reindex compares against and reuses), verified. */
export async function readBuildSections(
  buildDir: string,
): Promise<{ manifest: Manifest; documents: StoredDocument[]; sections: StoredSection[] }> {
  const manifest = await readManifest(buildDir);
  const path = join(buildDir, INDEX_FILES.sections);
  const { documents, sections } = decodeBinary(
    await readChecked(buildDir, manifest, INDEX_FILES.sections),
    decodeSections,
    path,
  );
  if (sections.length !== manifest.sections)
    throw new IndexError(`${path} holds ${sections.length} sections but the manifest says ${manifest.sections}`);
  refuseBadReferences(path, checkDocumentRanges(documents, sections));
  return { manifest, documents, sections };
}

/** A build's BM25F postings alone, verified (what a reindex reuses for unchanged documents). */
export async function readBuildLexical(buildDir: string, manifest: Manifest): Promise<LexicalData> {
  const path = join(buildDir, INDEX_FILES.lexical);
  const lexical = decodeBinary(await readChecked(buildDir, manifest, INDEX_FILES.lexical), decodePostings, path);
  refuseBadReferences(path, checkLexicalReferences(lexical, manifest.sections));
  return lexical;
}

/** A build's section vectors, verified (a reindex carries unchanged sections' vectors over). */
export async function readBuildVectors(buildDir: string, manifest: Manifest): Promise<VectorMatrix> {
  const path = join(buildDir, INDEX_FILES.vectors);
  const data = await readChecked(buildDir, manifest, INDEX_FILES.vectors);
  return toMatrix(data, manifest.model.dimensions, manifest.sections, path);
}

/** A build's query-expansion vocabulary and its vectors, verified. */
export async function readBuildExpansion(buildDir: string, manifest: Manifest): Promise<IndexContent['expansion']> {
  const at = (f: string) => join(buildDir, f);
  const { terms } = parseJson(
    await readChecked(buildDir, manifest, INDEX_FILES.terms),
    termsFileSchema,
    at(INDEX_FILES.terms),
  );
  const vectors = toMatrix(
    await readChecked(buildDir, manifest, INDEX_FILES.termVectors),
    manifest.model.dimensions,
    terms.length,
    at(INDEX_FILES.termVectors),
  );
  return { terms, vectors };
}

/** A build's HNSW graph and its slot → section map, both verified (a reindex updates the graph in place). */
export async function readBuildGraph(buildDir: string, manifest: Manifest): Promise<HnswVectorIndex> {
  const path = join(buildDir, INDEX_FILES.hnsw);
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
