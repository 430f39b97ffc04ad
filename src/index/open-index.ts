import { join } from 'node:path';
import type { KnowledgeBaseProfile } from './corpus-profile.js';
import { checkDocumentRanges, checkPostingTables, checkSectionColumns } from './check-references.js';
import { CURRENT_FILE, INDEX_FILES, IndexError, profileFileSchema } from './format.js';
import type { Manifest } from './manifest.js';
import { openPostingsFile, type PostingsFileParts } from './postings-file.js';
import {
  checkSectionCount,
  currentBuildDir,
  layoutChecked,
  openPiecedFile,
  parseJson,
  hasGraph,
  readBuildGraph,
  readBuildVectors,
  readChecked,
  readManifest,
  refuseBadReferences,
} from './read-index.js';
import { SectionStore } from './section-store.js';
import { openSectionsFile, type SectionColumns } from './sections-file.js';
import type { HnswVectorIndex, VectorMatrix } from './vector-index.js';

/**
 * Opens the current build for serving without reading it whole (docs/index-format.md). Read and
 * verified at load: the manifest, the document table and every per-section number (document,
 * role, parent, where its headings and text lie), the BM25F lengths, terms and where each term's
 * postings lie, the section vectors and the corpus profile. Left on
 * disk and verified piece by piece when read: each term's postings (when a query has the term)
 * and the sections' headings and text (when a result shows them). The HNSW graph is read and
 * verified whole where searches use it, and not opened where they never do.
 */

/** A build opened for serving, without its HNSW graph. */
export interface IndexWithoutGraph extends Pick<SectionColumns, 'documents' | 'parents'> {
  manifest: Manifest;
  /** The build folder it was read from. */
  buildDir: string;
  /** The sections, their headings and text read when asked for. */
  sections: SectionStore;
  vectors: VectorMatrix;
  /** postings.bin as held: the postings themselves are read by term. */
  lexical: PostingsFileParts;
  profiles: KnowledgeBaseProfile[];
}

export interface LoadedIndex extends IndexWithoutGraph {
  hnsw?: HnswVectorIndex;
}

/** Opens and verifies the current build, with its HNSW graph (where it has one) read and verified whole. */
export async function readIndex(indexDir: string): Promise<LoadedIndex> {
  const index = await readIndexWithoutGraph(indexDir);
  return hasGraph(index.manifest) ? { ...index, hnsw: await readBuildGraph(index.buildDir, index.manifest) } : index;
}

/** Opens the current build for serving (what is read now and what later: above); the graph is not read. */
export async function readIndexWithoutGraph(indexDir: string): Promise<IndexWithoutGraph> {
  const buildDir = await currentBuildDir(indexDir);
  if (buildDir === undefined)
    throw new IndexError(
      `no index in ${indexDir} (no ${CURRENT_FILE} file)`,
      "run 'svc-docs index' first",
      'index_missing',
    );
  const manifest = await readManifest(buildDir);
  // Read side by side; a damaged build is refused for its first bad file in this order, whichever failed first.
  const [sections, lexical, vectors, profiles] = await firstFailure([
    openSections(buildDir, manifest),
    openPostings(buildDir, manifest),
    readBuildVectors(buildDir, manifest),
    readProfiles(buildDir, manifest),
  ] as const);
  return { manifest, buildDir, ...sections, vectors, lexical, profiles };
}

/** Every promise's value, once all have settled; else the first rejection in the list's order. */
async function firstFailure<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

async function openSections(
  buildDir: string,
  manifest: Manifest,
): Promise<Pick<IndexWithoutGraph, 'documents' | 'sections' | 'parents'>> {
  const path = join(buildDir, INDEX_FILES.sections);
  const file = await openPiecedFile(buildDir, manifest, INDEX_FILES.sections);
  const columns = await layoutChecked(path, () => openSectionsFile(file));
  checkSectionCount(path, columns.doc.length, manifest);
  refuseBadReferences(path, checkDocumentRanges(columns.documents, columns.doc));
  refuseBadReferences(path, checkSectionColumns(columns.doc, columns.parents, columns.headingStart));
  const { doc, roles, headingStart, headings, text } = columns;
  const sections = new SectionStore({ file: file.parts, doc, roles, headingStart, headings, text });
  return { documents: columns.documents, sections, parents: columns.parents };
}

async function openPostings(buildDir: string, manifest: Manifest): Promise<PostingsFileParts> {
  const path = join(buildDir, INDEX_FILES.lexical);
  const file = await openPiecedFile(buildDir, manifest, INDEX_FILES.lexical);
  const parts = await layoutChecked(path, () => openPostingsFile(file));
  refuseBadReferences(path, checkPostingTables(parts, manifest.sections));
  return parts;
}

async function readProfiles(buildDir: string, manifest: Manifest): Promise<KnowledgeBaseProfile[]> {
  const data = await readChecked(buildDir, manifest, INDEX_FILES.profile);
  return parseJson(data, profileFileSchema, join(buildDir, INDEX_FILES.profile)).profiles;
}
