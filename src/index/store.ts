import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { lexicalDataSchema, type LexicalData } from './lexical-index.js';
import { INDEX_FORMAT_VERSION, manifestSchema, type Manifest } from './manifest.js';
import { HnswVectorIndex, type VectorMatrix } from './vector-index.js';

/**
 * index-data on disk. Each build is a complete folder (`build-…`) and the file `CURRENT` names
 * the live one. A build is written into a temporary folder, renamed into place, and only then is
 * CURRENT replaced (write + rename, atomic on POSIX). A crash, kill or full disk at any point
 * leaves the previous build and CURRENT untouched, and a running server can keep reading the
 * build it loaded while a new one appears beside it.
 */

export const storedDocumentSchema = z.object({
  kb: z.string(),
  path: z.string(),
  title: z.string(),
  hash: z.string(),
  /** Sections of a document are contiguous: firstSection … firstSection + sectionCount - 1. */
  firstSection: z.number().int().nonnegative(),
  sectionCount: z.number().int().nonnegative(),
});
export type StoredDocument = z.infer<typeof storedDocumentSchema>;

export const storedSectionSchema = z.object({
  doc: z.number().int().nonnegative(),
  headings: z.array(z.string()),
  text: z.string(),
});
export type StoredSection = z.infer<typeof storedSectionSchema>;

const sectionsFileSchema = z.object({ documents: z.array(storedDocumentSchema), sections: z.array(storedSectionSchema) });
const termsFileSchema = z.object({ terms: z.array(z.string()) });

export interface IndexContent {
  documents: StoredDocument[];
  sections: StoredSection[];
  /** One unit vector per section, in section order. */
  vectors: VectorMatrix;
  lexical: LexicalData;
  /** Corpus vocabulary with the model's vector for each term: the query-expansion table. */
  expansion: { terms: string[]; vectors: VectorMatrix };
}

export interface LoadedIndex extends IndexContent {
  manifest: Manifest;
  hnsw: HnswVectorIndex;
  /** The build folder it was read from. */
  buildDir: string;
}

export class IndexError extends Error {}

const FILES = {
  sections: 'sections.json',
  lexical: 'lexical.json',
  vectors: 'vectors.f32',
  hnsw: 'vectors.hnsw',
  terms: 'expansion-terms.json',
  termVectors: 'expansion-vectors.f32',
} as const;
const CURRENT = 'CURRENT';
const REBUILD = "run 'svc-docs index' to rebuild it";

function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function matrixBytes(m: VectorMatrix): Buffer {
  return Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
}

/** Writes and fsyncs a file, so a rename that follows never exposes a half-written one. */
export async function writeDurably(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * hnswlib neither reports a failed write (a full disk or a file size limit leaves a truncated
 * file, and save() still succeeds) nor syncs: load the file back to prove it whole, then sync it.
 */
async function saveHnswDurably(hnsw: HnswVectorIndex, path: string, dims: number, rows: number, params: Manifest['hnsw']): Promise<void> {
  await hnsw.save(path);
  try {
    await HnswVectorIndex.load(path, dims, rows, params);
  } catch (error) {
    throw Object.assign(new Error(`${basename(path)} was written incompletely (${(error as Error).message})`), { code: 'EINCOMPLETE' });
  }
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type ManifestDraft = Omit<Manifest, 'files' | 'formatVersion'>;

/** What to do about a failed write, by error code. */
const WRITE_FIX: Record<string, string> = {
  ENOSPC: 'free disk space',
  EDQUOT: 'free disk space (the disk quota is used up)',
  EFBIG: 'raise the file size limit (ulimit -f) or free disk space',
  EACCES: 'make the folder writable',
  EPERM: 'make the folder writable',
  EROFS: 'use a folder on a writable file system',
  ENOTDIR: 'choose an output path whose parents are folders, not files',
  EEXIST: 'choose an output path that is a folder',
  EINCOMPLETE: 'free disk space or raise the file size limit (ulimit -f)',
};

/**
 * Writes a complete build and makes it current. Returns the build folder. A write that fails
 * (full disk, read-only folder, file size limit) leaves CURRENT and the previous build as they
 * were, and is reported as one IndexError naming the folder and what to do.
 */
export async function writeIndex(indexDir: string, draft: ManifestDraft, content: IndexContent, hnsw: HnswVectorIndex): Promise<string> {
  let name: string;
  try {
    name = await writeBuild(indexDir, draft, content, hnsw);
  } catch (error) {
    const fix = WRITE_FIX[(error as NodeJS.ErrnoException).code ?? ''] ?? 'check the folder';
    throw new IndexError(`cannot write the index to ${indexDir} (${(error as Error).message}); the previous index is unchanged: ${fix}, then run 'svc-docs index' again`);
  }
  await syncDir(indexDir);
  await removeOldBuilds(indexDir, name);
  return join(indexDir, name);
}

/** Writes the build folder, then switches CURRENT to it (the last step that can fail); returns its name. */
async function writeBuild(indexDir: string, draft: ManifestDraft, content: IndexContent, hnsw: HnswVectorIndex): Promise<string> {
  await mkdir(indexDir, { recursive: true });
  await removeAbandonedTemps(indexDir);
  const name = `build-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
  const tmp = join(indexDir, `.tmp-${process.pid}-${name}`);
  await mkdir(tmp);
  try {
    const blobs: Record<string, Uint8Array | string> = {
      [FILES.sections]: JSON.stringify({ documents: content.documents, sections: content.sections }),
      [FILES.lexical]: JSON.stringify(content.lexical),
      [FILES.vectors]: matrixBytes(content.vectors),
      [FILES.terms]: JSON.stringify({ terms: content.expansion.terms }),
      [FILES.termVectors]: matrixBytes(content.expansion.vectors),
    };
    const files: Record<string, string> = {};
    for (const [file, data] of Object.entries(blobs)) {
      await writeDurably(join(tmp, file), data);
      files[file] = sha256(data);
    }
    await saveHnswDurably(hnsw, join(tmp, FILES.hnsw), content.vectors.dims, content.sections.length, draft.hnsw);
    files[FILES.hnsw] = sha256(await readFile(join(tmp, FILES.hnsw)));
    const manifest: Manifest = { formatVersion: INDEX_FORMAT_VERSION, ...draft, files };
    await writeDurably(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    await syncDir(tmp);
    await rename(tmp, join(indexDir, name));
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const pointer = join(indexDir, `.${CURRENT}.${process.pid}.tmp`);
  try {
    await writeDurably(pointer, name + '\n');
    await rename(pointer, join(indexDir, CURRENT));
  } catch (error) {
    // Not current, so not kept: an orphan build would pass for "the one before" and get the
    // build a server is still reading deleted in its place.
    await rm(pointer, { force: true });
    await rm(join(indexDir, name), { recursive: true, force: true });
    throw error;
  }
  return name;
}

/** Temp folders of builds whose process is gone (killed mid-build). */
async function removeAbandonedTemps(indexDir: string): Promise<void> {
  for (const entry of await readdir(indexDir)) {
    const m = /^\.tmp-(\d+)-/.exec(entry) ?? /^\.CURRENT\.(\d+)\.tmp$/.exec(entry);
    if (m && !isAlive(Number(m[1]))) await rm(join(indexDir, entry), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Keeps the current build and the one before it (a server may still be reading it). */
async function removeOldBuilds(indexDir: string, current: string): Promise<void> {
  const builds = (await readdir(indexDir)).filter((e) => e.startsWith('build-') && e !== current).sort();
  for (const old of builds.slice(0, -1)) await rm(join(indexDir, old), { recursive: true, force: true });
}

/** The live build folder, or undefined when there is no index yet. */
export async function currentBuildDir(indexDir: string): Promise<string | undefined> {
  const pointer = join(indexDir, CURRENT);
  if (!existsSync(pointer)) return undefined;
  const name = (await readFile(pointer, 'utf8')).trim();
  if (!/^build-[\w-]+$/.test(name)) throw new IndexError(`${pointer} is corrupt (it should name a build folder): ${REBUILD}`);
  return join(indexDir, name);
}

export async function readManifest(buildDir: string): Promise<Manifest> {
  const path = join(buildDir, 'manifest.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : 'is not valid JSON';
    throw new IndexError(`${path} ${why}: ${REBUILD}`);
  }
  const version = (raw as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== INDEX_FORMAT_VERSION) {
    throw new IndexError(`${path} has index format ${String(version)} but this svc-docs reads format ${INDEX_FORMAT_VERSION}: ${REBUILD}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new IndexError(`${path} is malformed (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}): ${REBUILD}`);
  return parsed.data;
}

async function readChecked(buildDir: string, manifest: Manifest, file: string): Promise<Buffer> {
  const path = join(buildDir, file);
  const expected = manifest.files[file];
  if (expected === undefined) throw new IndexError(`${join(buildDir, 'manifest.json')} lists no checksum for ${file}: ${REBUILD}`);
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch {
    throw new IndexError(`${path} is missing: ${REBUILD}`);
  }
  if (sha256(data) !== expected) throw new IndexError(`${path} is corrupt (checksum mismatch): ${REBUILD}`);
  return data;
}

function parseJson<T>(data: Buffer, schema: z.ZodType<T>, path: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString('utf8'));
  } catch {
    throw new IndexError(`${path} is not valid JSON: ${REBUILD}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new IndexError(`${path} is malformed: ${REBUILD}`);
  return parsed.data;
}

function toMatrix(data: Buffer, dims: number, rows: number, path: string): VectorMatrix {
  if (data.byteLength !== rows * dims * 4) throw new IndexError(`${path} has ${data.byteLength} bytes, expected ${rows * dims * 4}: ${REBUILD}`);
  // Copy into an aligned buffer: Buffer slices may not start on a 4-byte boundary.
  const floats = new Float32Array(rows * dims);
  new Uint8Array(floats.buffer).set(data);
  return { dims, data: floats };
}

/** Loads and verifies the current build: every file present, intact and consistent. */
export async function readIndex(indexDir: string): Promise<LoadedIndex> {
  const buildDir = await currentBuildDir(indexDir);
  if (buildDir === undefined) throw new IndexError(`no index in ${indexDir} (no ${CURRENT} file): run 'svc-docs index' first`);
  return readBuild(buildDir);
}

/** A build's manifest, documents and sections (what a reindex compares against and reuses), verified. */
export async function readBuildSections(buildDir: string): Promise<{ manifest: Manifest; documents: StoredDocument[]; sections: StoredSection[] }> {
  const manifest = await readManifest(buildDir);
  const data = await readChecked(buildDir, manifest, FILES.sections);
  return { manifest, ...parseJson(data, sectionsFileSchema, join(buildDir, FILES.sections)) };
}

export async function readBuild(buildDir: string): Promise<LoadedIndex> {
  const manifest = await readManifest(buildDir);
  const dims = manifest.model.dimensions;
  const at = (f: string) => join(buildDir, f);
  const { documents, sections } = parseJson(await readChecked(buildDir, manifest, FILES.sections), sectionsFileSchema, at(FILES.sections));
  if (sections.length !== manifest.sections) throw new IndexError(`${at(FILES.sections)} holds ${sections.length} sections but the manifest says ${manifest.sections}: ${REBUILD}`);
  const lexical = parseJson(await readChecked(buildDir, manifest, FILES.lexical), lexicalDataSchema, at(FILES.lexical));
  const vectors = toMatrix(await readChecked(buildDir, manifest, FILES.vectors), dims, sections.length, at(FILES.vectors));
  const { terms } = parseJson(await readChecked(buildDir, manifest, FILES.terms), termsFileSchema, at(FILES.terms));
  const termVectors = toMatrix(await readChecked(buildDir, manifest, FILES.termVectors), dims, terms.length, at(FILES.termVectors));
  await readChecked(buildDir, manifest, FILES.hnsw);
  let hnsw: HnswVectorIndex;
  try {
    hnsw = await HnswVectorIndex.load(at(FILES.hnsw), dims, sections.length, manifest.hnsw);
  } catch (error) {
    throw new IndexError(`${at(FILES.hnsw)} cannot be loaded (${(error as Error).message}): ${REBUILD}`);
  }
  return { manifest, documents, sections, vectors, lexical, expansion: { terms, vectors: termVectors }, hnsw, buildDir };
}
