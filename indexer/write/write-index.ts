import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  CURRENT_FILE,
  INDEX_FILES,
  IndexError,
  MANIFEST_FILE,
  PIECED_FILES,
  sha256,
  type IndexContent,
} from '../../src/index/format.js';
import { PieceHasher, PIECES_SUFFIX } from '../../src/index/pieces.js';
import { profileCorpus } from '../../src/index/corpus-profile.js';
import { INDEX_FORMAT_VERSION, type Manifest } from '../../src/index/manifest.js';
import { postingsPieces } from '../../src/index/postings-file.js';
import { sectionsPieces } from '../../src/index/sections-file.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import type { HnswVectorIndex, VectorMatrix } from '../../src/index/vector-index.js';
import { removeAbandonedTemps, removeOldBuilds } from './clean-index.js';
import { hnswFileProblem } from '../../src/index/hnsw-file-check.js';

/**
 * Writes index-data. A build is written into a temporary folder, renamed into place, and only
 * then is CURRENT replaced (write + rename, atomic on POSIX). A crash, kill or full disk at any
 * point leaves the previous build and CURRENT untouched, and a running server can keep reading
 * the build it loaded while a new one appears beside it.
 */

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

/**
 * Writes `pieces` one after another and fsyncs the file; returns its checksum: the sha256 of what
 * it wrote or, `pieced`, of its piece list (pieces.ts), written beside it as `<file>.pieces`.
 */
async function writePiecesDurably(path: string, pieces: Iterable<Uint8Array>, pieced = false): Promise<string> {
  const hash = createHash('sha256');
  const byPiece = new PieceHasher();
  const handle = await open(path, 'w');
  try {
    for (const piece of pieces) {
      // Taken before the write: a piece may be a reused buffer the generator refills after it.
      if (pieced) byPiece.update(piece);
      else hash.update(piece);
      await handle.write(piece);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (!pieced) return hash.digest('hex');
  const list = byPiece.list();
  await writeDurably(path + PIECES_SUFFIX, list);
  return sha256(list);
}

async function syncPath(path: string, flags: 'r' | 'r+' = 'r'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function matrixBytes(m: VectorMatrix): Buffer {
  return Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
}

/** Saves the graph and its slot map, proves the graph whole (hnsw-file-check.ts), syncs both; returns their checksums by file name. */
async function saveHnswDurably(hnsw: HnswVectorIndex, dir: string, dims: number): Promise<Record<string, string>> {
  const path = join(dir, INDEX_FILES.hnsw);
  await hnsw.save(path);
  const graph = await syncedBytes(path);
  const problem = hnswFileProblem(graph, dims, hnsw.sectionOf.length);
  if (problem !== undefined)
    throw Object.assign(new Error(`${basename(path)} was written incompletely (${problem})`), { code: 'EINCOMPLETE' });
  const labels = await syncedBytes(join(dir, INDEX_FILES.hnswLabels));
  return { [INDEX_FILES.hnsw]: sha256(graph), [INDEX_FILES.hnswLabels]: sha256(labels) };
}

/** A file another writer made (hnswlib), synced, then read back whole. */
async function syncedBytes(path: string): Promise<Buffer> {
  await syncPath(path, 'r+');
  return readFile(path);
}

/**
 * Writes a complete build and makes it current. Returns the build folder. A write that fails
 * (full disk, read-only folder, file size limit) leaves CURRENT and the previous build as they
 * were, and is reported as one IndexError naming the folder and what to do.
 */
export async function writeIndex(
  indexDir: string,
  draft: ManifestDraft,
  content: IndexContent,
  hnsw: HnswVectorIndex | undefined,
): Promise<string> {
  let name: string;
  let previous: string | undefined;
  try {
    await mkdir(indexDir, { recursive: true });
    await refuseFolderPointer(indexDir);
    previous = await previousName(indexDir);
    name = await writeBuild(indexDir, draft, content, hnsw);
  } catch (error) {
    if (error instanceof IndexError) throw error;
    const fix = WRITE_FIX[(error as NodeJS.ErrnoException).code ?? ''] ?? 'check the folder';
    throw new IndexError(
      `cannot write the index to ${indexDir} (${(error as Error).message}); the previous index is unchanged`,
      `${fix}, then run 'svc-docs index' again`,
    );
  }
  await syncPath(indexDir);
  await removeOldBuilds(indexDir, [name, previous]);
  return join(indexDir, name);
}

/** A CURRENT that is a folder would fail the switch only after the whole build: say so first. */
async function refuseFolderPointer(indexDir: string): Promise<void> {
  const pointer = join(indexDir, CURRENT_FILE);
  const isFolder = await stat(pointer).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (isFolder)
    throw new IndexError(
      `${pointer} is a folder, but it must be a file naming the live build`,
      "remove the folder, then run 'svc-docs index' again",
    );
}

/** The build CURRENT names before this one replaces it: a running server may still read it. */
async function previousName(indexDir: string): Promise<string | undefined> {
  try {
    const dir = await currentBuildDir(indexDir);
    return dir === undefined ? undefined : basename(dir);
  } catch {
    // A corrupt CURRENT names no build worth keeping.
    return undefined;
  }
}

/** Writes the build folder, then switches CURRENT to it (the last step that can fail); returns its name. */
async function writeBuild(
  indexDir: string,
  draft: ManifestDraft,
  content: IndexContent,
  hnsw: HnswVectorIndex | undefined,
): Promise<string> {
  await removeAbandonedTemps(indexDir);
  // The writer's pid in the name tells a later build whether an unswitched build is abandoned.
  const name = `build-${new Date().toISOString().replace(/[-:.]/g, '')}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = join(indexDir, `.tmp-${process.pid}-${name}`);
  await mkdir(tmp);
  try {
    const files = await allSettledOrThrow([
      writeDataFiles(tmp, content),
      hnsw === undefined ? Promise.resolve({}) : saveHnswDurably(hnsw, tmp, content.vectors.dims),
    ]);
    const manifest: Manifest = { formatVersion: INDEX_FORMAT_VERSION, ...draft, files };
    await writeDurably(join(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await syncPath(tmp);
    await rename(tmp, join(indexDir, name));
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const pointer = join(indexDir, `.${CURRENT_FILE}.${process.pid}.tmp`);
  try {
    await writeDurably(pointer, name + '\n');
    await rename(pointer, join(indexDir, CURRENT_FILE));
  } catch (error) {
    // Not current, so not kept: an orphan build is deleted rather than left to pass for a live one.
    await rm(pointer, { force: true });
    await rm(join(indexDir, name), { recursive: true, force: true });
    throw error;
  }
  return name;
}

/** Writes the data files durably, the big tables in pieces; returns their checksums by file name. */
async function writeDataFiles(dir: string, content: IndexContent): Promise<Record<string, string>> {
  const streams: Record<string, Iterable<Uint8Array>> = {
    [INDEX_FILES.sections]: sectionsPieces(content.documents, content.sections),
    [INDEX_FILES.lexical]: postingsPieces(content.lexical),
    [INDEX_FILES.vectors]: [matrixBytes(content.vectors)],
    [INDEX_FILES.profile]: [Buffer.from(JSON.stringify({ profiles: profileCorpus(content) }))],
  };
  // Side by side: each file's fsync waits on the disk, not on the others.
  return allSettledOrThrow(
    Object.entries(streams).map(async ([file, pieces]) => ({
      [file]: await writePiecesDurably(join(dir, file), pieces, PIECED_FILES.has(file)),
    })),
  );
}

/**
 * Checksums by file name from writers run side by side. All settle before a failure is
 * reported, so the caller's cleanup never races a writer still creating its file.
 */
async function allSettledOrThrow(writers: Promise<Record<string, string>>[]): Promise<Record<string, string>> {
  const settled = await Promise.allSettled(writers);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return Object.assign({}, ...settled.map((r) => (r as PromiseFulfilledResult<Record<string, string>>).value));
}
