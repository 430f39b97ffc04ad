import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { INDEX_FILES, PIECED_FILES } from '../../src/index/format.js';
import { fileChecksum, PIECES_SUFFIX } from '../../src/index/pieces.js';
import { DEFAULT_MODEL_ID } from '../../src/embedding/default-model.js';
import { IndexError } from '../../src/index/format.js';
import { currentBuildDir, hasGraph, readManifest } from '../../src/index/read-index.js';
import type { Manifest } from '../../src/index/manifest.js';
import { CorpusDigests } from '../write/corpus-digests.js';
import type { CorpusRoot } from '../load/knowledge-base.js';
import { DEFAULT_MAX_FILE_BYTES, loadCorpus, type CorpusDocument } from '../load/load-corpus.js';
import type { ManifestSettings } from '../manifest-settings.js';

type IndexStatus = { state: 'current' } | { state: 'missing' | 'stale'; reason: string };

/**
 * Whether the index in `outDir` was built from this corpus as it is now (and with `model`, when
 * one is named). Damaged data files are not checked here: loading the index reports them.
 * `maxFileBytes` must be the build's, so that the files it left out count the same here, and
 * `vectorCacheDir` the build's, so that the files' digests it remembers are used.
 */
export async function indexStatus(
  corpusDirs: readonly (string | CorpusRoot)[],
  outDir: string,
  model?: string,
  maxFileBytes = DEFAULT_MAX_FILE_BYTES,
  vectorCacheDir?: string,
): Promise<IndexStatus> {
  let manifest: Manifest;
  try {
    const dir = await currentBuildDir(outDir);
    if (dir === undefined) return { state: 'missing', reason: `no index in ${outDir}` };
    manifest = await readManifest(dir);
  } catch (error) {
    // An index this svc-docs cannot read (other format, damaged manifest) is rebuilt from the corpus.
    return { state: 'stale', reason: error instanceof IndexError ? error.problem : (error as Error).message };
  }
  if (
    model !== undefined &&
    model !== manifest.model.id &&
    !(model === 'default' && manifest.model.id === DEFAULT_MODEL_ID)
  ) {
    return { state: 'stale', reason: `the index was built with ${manifest.model.id}, not ${model}` };
  }
  const digests = CorpusDigests.beside(vectorCacheDir);
  if (corpusChecksum(loadCorpus(corpusDirs, { maxFileBytes, digests })) !== manifest.corpus.checksum)
    return { state: 'stale', reason: 'the corpus changed since the index was built' };
  return { state: 'current' };
}

/** Every file read, by name and content hash (files left out for their parse time included). */
export function corpusChecksum(corpus: CorpusDocument[]): string {
  const h = createHash('sha256');
  // A page's URL is part of what is built: a new kb.json baseUrl builds again.
  for (const d of corpus) h.update(`${d.kb}/${d.path}\0${d.hash}${d.url === undefined ? '' : `\0${d.url}`}\n`);
  return h.digest('hex');
}

/** What a build would write into its manifest (manifest-settings.ts), and what its corpus and model decide. */
interface BuildSettings extends ManifestSettings {
  corpusChecksum: string;
  /** Files read, but for those known to be left out (parse-failures.ts). */
  documentsRead: number;
  /** The model's checksum when it is known without loading the model (an embedder given, or the bundled model's files). */
  modelChecksum: () => Promise<string | undefined>;
}

/**
 * The live build, when building again would write the same index: same corpus (every file's name
 * and content hash, none left out but those known to be), same chunking, BM25F, HNSW, fusion and label settings, same
 * model files. Decided from the manifest alone: no model load, no parse.
 */
export async function unchangedBuild(
  outDir: string,
  settings: BuildSettings,
): Promise<{ buildDir: string; manifest: Manifest } | undefined> {
  let buildDir: string | undefined;
  let manifest: Manifest;
  try {
    buildDir = await currentBuildDir(outDir);
    if (buildDir === undefined) return undefined;
    manifest = await readManifest(buildDir);
  } catch {
    return undefined;
  }
  const same =
    manifest.corpus.checksum === settings.corpusChecksum &&
    manifest.corpus.documents === settings.documentsRead &&
    isDeepStrictEqual(manifest.chunking, settings.chunking) &&
    isDeepStrictEqual(manifest.lexical, settings.lexical) &&
    isDeepStrictEqual(manifest.hnsw, settings.hnsw(manifest.sections)) &&
    hasGraph(manifest) === settings.graph(manifest.fusion) &&
    isDeepStrictEqual(manifest.relevance, settings.relevance) &&
    isDeepStrictEqual(manifest.fusion, settings.fusion(manifest.model.id));
  // The model's checksum and the files last: they hash files. A damaged build is built again.
  return same && (await settings.modelChecksum()) === manifest.model.checksum && (await filesIntact(buildDir, manifest))
    ? { buildDir, manifest }
    : undefined;
}

/** Every data file of the build (the graph's where it has one) is there with the sha256 its manifest records (of its piece list, for a pieced file). */
async function filesIntact(buildDir: string, manifest: Manifest): Promise<boolean> {
  const graphFiles: string[] = [INDEX_FILES.hnsw, INDEX_FILES.hnswLabels];
  for (const file of Object.values(INDEX_FILES)) {
    // A build whose searches never read the graph has none (build.ts).
    if (!hasGraph(manifest) && graphFiles.includes(file)) continue;
    const expected = manifest.files[file];
    if (expected === undefined) return false;
    try {
      if ((await fileChecksum(join(buildDir, file), PIECED_FILES.has(file))) !== expected) return false;
      if (PIECED_FILES.has(file) && (await fileChecksum(join(buildDir, file + PIECES_SUFFIX), false)) !== expected)
        return false;
    } catch {
      return false;
    }
  }
  return true;
}
