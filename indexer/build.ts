import { DEFAULT_MODEL_ID, ensureDefaultModel } from '../src/embedding/default-model.js';
import { folderChecksum, loadEmbedder } from '../src/embedding/embedder.js';
import type { Embedder } from '../src/embedding/types.js';
import type { Manifest } from '../src/index/manifest.js';
import { HnswVectorIndex, type HnswParams } from '../src/index/vector-index.js';
import { DEFAULT_CHUNK_OPTIONS, type ChunkOptions } from './chunk/chunk.js';
import { CorpusDigests } from './write/corpus-digests.js';
import {
  chunkCorpus,
  DEFAULT_FILE_LIMITS,
  skipRemembered,
  type ChunkedCorpus,
  type FileLimits,
} from './parse/chunk-corpus.js';
import { updateGraph } from './reindex/hnsw-update.js';
import { corpusChecksum, unchangedBuild } from './reindex/index-status.js';
import type { KeptBuild } from './reindex/kept-build.js';
import { loadCorpus, type CorpusDocument } from './load/load-corpus.js';
import { ParseFailures } from './parse/parse-failures.js';
import { SkipLog, type SkipSummary } from './load/skipped-files.js';
import { corpusRoots, type SourceOptions } from './sources/corpus-roots.js';
import { embeddingText, lexicalFields } from './write/section-text.js';
import {
  carriedFrom,
  carriedVectors,
  chunkedAlike,
  diffDocuments,
  previousBuild,
  readPreviousData,
  type PreviousBuild,
  type PreviousData,
} from './reindex/previous-build.js';
import { lexicalData } from './write/section-tokens.js';
import { type BuildPhase, type EmbedOptions, embedThroughCache } from './write/embed.js';
import { VectorCache, vectorCacheDirOf } from './write/vector-cache.js';
import { writeIndex, type ManifestDraft } from './write/write-index.js';
import { manifestSettings, type SettingsOptions } from './manifest-settings.js';

/** corpus → load ▸ chunk ▸ embed (through the cache) ▸ lexical (+ HNSW where searched) ▸ index-data, atomically. */

export interface BuildOptions extends EmbedOptions, SettingsOptions {
  /** Folders, or git repositories `git+<url>[#<branch>][:<subfolder>]` (src/corpus-spec.ts). */
  corpusDirs: string[];
  /** Where git corpora are cloned and how long git may take (indexer/sources/corpus-roots.ts). */
  sources?: Omit<SourceOptions, 'log'>;
  outDir: string;
  /** Model folder or id; default: the bundled static model. Ignored when `embedder` is given. */
  model?: string;
  embedder?: Embedder;
  allowRemoteModels?: boolean;
  /** The cache folder (the default model, downloaded models); default: the svc-docs folder's `.cache`. */
  cacheDir?: string;
  /** Where cached vectors (and the corpus files' remembered digests) live; default `<cacheDir>/vectors`. */
  vectorCacheDir?: string;
  chunk?: ChunkOptions;
  /** Worker threads a large change set is parsed on; default one per core (indexer/parse/chunker-pool.ts). */
  parseWorkers?: number;
  /** Per-file size, parse-time and parser-memory limits (DEFAULT_FILE_LIMITS). */
  limits?: Partial<FileLimits>;
  log?: (line: string) => void;
  /** Files left out, and why (skipped-files.ts): warnings, where a caller tells them apart; default: `log`. */
  warn?: (line: string) => void;
  /** A long-lived indexer's last build, kept in memory for the next (kept-build.ts): read from and updated. */
  keep?: KeptBuild;
}

/** `leftOut` and `unsupported` (SkipSummary): every file left out with why, the parse's `skipped` among them. */
export interface BuildSummary extends SkipSummary {
  buildDir: string;
  documents: number;
  sections: number;
  knowledgeBases: string[];
  /** Section vectors computed in this build, and those taken from the cache. */
  sectionsEmbedded: number;
  sectionsReused: number;
  /** Files parsed and chunked in this build; the others kept their sections from the previous build. */
  documentsParsed: number;
  /** Files read but left out (their parse ran over the time limit), as `kb/path`. */
  skipped: string[];
  /** Of those, the ones left out without parsing: an earlier build's parse of the same content ran over the limit. */
  remembered: string[];
  changes: { added: string[]; changed: string[]; removed: string[] };
  seconds: number;
  /** True when the live build already was this index: nothing was written. */
  unchanged: boolean;
}

export async function buildIndex(given: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const options = { ...given, vectorCacheDir: vectorCacheDirOf(given.vectorCacheDir, given.cacheDir) };
  const log = options.log ?? (() => {});
  const maxFileBytes = options.limits?.maxFileBytes ?? DEFAULT_FILE_LIMITS.maxFileBytes;
  const digests = CorpusDigests.beside(options.vectorCacheDir);
  const skips = new SkipLog(options.warn ?? log);
  const roots = await corpusRoots(options.corpusDirs, { cacheDir: options.cacheDir, ...options.sources, log });
  const corpus = loadCorpus(roots, { maxFileBytes, skips, digests });
  const chunkOptions = options.chunk ?? DEFAULT_CHUNK_OPTIONS;
  const timeoutMs = options.limits?.parseTimeoutMs ?? DEFAULT_FILE_LIMITS.parseTimeoutMs;
  const failures = ParseFailures.beside(options.vectorCacheDir);
  const remembered = skipRemembered(corpus, { timeoutMs, failures }, skips);
  const live = await liveBuildIfUnchanged(options, corpus, remembered.size, chunkOptions, log);
  if (live) {
    const rememberedNames = [...remembered].map((doc) => `${doc.kb}/${doc.path}`);
    return { ...unchangedSummary(live.buildDir, live.manifest, started, rememberedNames), ...skips.summary() };
  }
  const kept = await options.keep?.take(options.outDir);
  const previous = kept?.previous ?? (await previousBuild(options.outDir));
  // Read while the changed files are parsed. It never rejects: it is awaited only after the
  // parse, and a rejection unhandled meanwhile would end the process.
  const previousData = kept
    ? Promise.resolve(chunkedAlike(kept.previous, chunkOptions) ? kept.data : undefined)
    : readPreviousData(previous, chunkOptions).catch(() => undefined);
  const heapMb = options.limits?.parseHeapMb;
  const limit = { timeoutMs, failures, remembered, workers: options.parseWorkers, heapMb };
  const chunked = await chunkCorpus(corpus, previous, chunkOptions, limit, skips, log);
  failures.save();
  const ownsEmbedder = options.embedder === undefined;
  const embedder =
    options.embedder ??
    (await loadEmbedder({
      model: options.model,
      allowRemote: options.allowRemoteModels ?? false,
      cacheDir: options.cacheDir,
      log,
    }));
  try {
    const data = await previousData;
    const summary = await embedAndWrite(options, { corpus, chunkOptions, chunked, previous, data }, embedder, log);
    return { ...summary, ...skips.summary(), seconds: (performance.now() - started) / 1000 };
  } finally {
    if (ownsEmbedder) await embedder.dispose();
  }
}

interface Chunked {
  corpus: CorpusDocument[];
  chunkOptions: ChunkOptions;
  chunked: ChunkedCorpus;
  previous: PreviousBuild | undefined;
  data: PreviousData | undefined;
}

/** Embeds (through the cache), builds or updates the lexical statistics and the graph, and writes the build. */
async function embedAndWrite(
  options: BuildOptions & { vectorCacheDir: string },
  { corpus, chunkOptions, chunked, previous, data }: Chunked,
  embedder: Embedder,
  log: (line: string) => void,
): Promise<Omit<BuildSummary, keyof SkipSummary>> {
  const { documents, sections } = chunked;
  const cache = await VectorCache.open(options.vectorCacheDir, embedder.checksum, embedder.dimensions, log);
  const embed = (texts: string[], phase: BuildPhase) => embedThroughCache(texts, phase, embedder, cache, options);
  const settings = manifestSettings(options, chunkOptions);
  const hnswParams = settings.hnsw(sections.length);
  const carried = carriedFrom(previous, data, documents, sections, embedder, hnswParams);
  const sectionVectors = await carriedVectors(carried, sections.length, embedder.dimensions, (wanted) =>
    embed(
      wanted.map((s) => embeddingText(documents[sections[s]!.doc]!.title, sections[s]!)),
      'embed-sections',
    ),
  );
  // Saved before the index is written: a crash after this point costs no embedding next time.
  await cache.save();

  const lexical = lexicalData(
    documents,
    sections,
    carried?.lexical && { lexical: carried.lexical, oldOf: carried.oldOf },
    (doc, s) => lexicalFields(doc.title, s),
  );
  // The graph only where searches read it: a static model's never do (docs/how-search-works.md, Fusion).
  const hnsw = settings.graph(settings.fusion(embedder.modelId))
    ? ((carried?.graph && updateGraph(carried.graph, carried.oldOf, sectionVectors.matrix)) ??
      HnswVectorIndex.build(sectionVectors.matrix, hnswParams))
    : undefined;
  const draft = manifestDraft(options, embedder, { corpus, chunkOptions, chunked, previous, data }, hnswParams);
  const content = { documents, sections, vectors: sectionVectors.matrix, lexical };
  const buildDir = await writeIndex(options.outDir, draft, content, hnsw);
  await options.keep?.keep(buildDir, content, hnsw);
  return {
    buildDir,
    knowledgeBases: draft.corpus.knowledgeBases,
    ...buildCounts(chunked, previous, sectionVectors.embedded),
  };
}

/** What a build did, for its summary line. */
function buildCounts(
  chunked: ChunkedCorpus,
  previous: PreviousBuild | undefined,
  sectionsEmbedded: number,
): Omit<BuildSummary, 'buildDir' | 'knowledgeBases' | keyof SkipSummary> {
  const { documents, sections } = chunked;
  return {
    documents: documents.length,
    sections: sections.length,
    sectionsEmbedded,
    sectionsReused: sections.length - sectionsEmbedded,
    documentsParsed: chunked.documentsParsed,
    skipped: chunked.skipped,
    remembered: chunked.remembered,
    changes: diffDocuments(previous?.documents ?? [], documents),
    seconds: 0,
    unchanged: false,
  };
}

/** The manifest of this build, but for the files' checksums (the writer adds them). */
function manifestDraft(
  options: BuildOptions,
  embedder: Embedder,
  { corpus, chunkOptions, chunked }: Chunked,
  hnswParams: HnswParams,
): ManifestDraft {
  const { documents, sections } = chunked;
  // The graph's presence is told by the files the writer lists, not by a setting in the manifest.
  const { graph: _graph, ...settings } = manifestSettings(options, chunkOptions);
  return {
    builtAt: new Date().toISOString(),
    builder: 'svc-docs',
    model: { id: embedder.modelId, dimensions: embedder.dimensions, checksum: embedder.checksum },
    corpus: {
      checksum: corpusChecksum(corpus),
      knowledgeBases: [...new Set(documents.map((d) => d.kb))],
      documents: documents.length,
    },
    sections: sections.length,
    ...settings,
    hnsw: hnswParams,
    fusion: settings.fusion(embedder.modelId),
  };
}

/**
 * The live build, if this build would write the same index (decided without loading the model or
 * parsing): `leftOut` documents of the corpus are known to be left out (their parse ran over the limit).
 */
function liveBuildIfUnchanged(
  options: BuildOptions,
  corpus: CorpusDocument[],
  leftOut: number,
  chunkOptions: ChunkOptions,
  log: (line: string) => void,
) {
  return unchangedBuild(options.outDir, {
    corpusChecksum: corpusChecksum(corpus),
    documentsRead: corpus.length - leftOut,
    ...manifestSettings(options, chunkOptions),
    modelChecksum: () => knownModelChecksum(options, log),
  });
}

/** The model's checksum without loading it: the given embedder's, or the bundled model's files hashed; else unknown. */
async function knownModelChecksum(options: BuildOptions, log: (line: string) => void): Promise<string | undefined> {
  if (options.embedder) return options.embedder.checksum;
  const model = options.model?.trim();
  if (model !== undefined && model !== '' && model !== 'default' && model !== DEFAULT_MODEL_ID) return undefined;
  return folderChecksum(await ensureDefaultModel({ cacheDir: options.cacheDir, log }));
}

function unchangedSummary(
  buildDir: string,
  manifest: Manifest,
  started: number,
  remembered: string[],
): Omit<BuildSummary, keyof SkipSummary> {
  return {
    buildDir,
    documents: manifest.corpus.documents,
    sections: manifest.sections,
    knowledgeBases: manifest.corpus.knowledgeBases,
    sectionsEmbedded: 0,
    sectionsReused: manifest.sections,
    documentsParsed: 0,
    skipped: remembered,
    remembered,
    changes: { added: [], changed: [], removed: [] },
    seconds: (performance.now() - started) / 1000,
    unchanged: true,
  };
}
