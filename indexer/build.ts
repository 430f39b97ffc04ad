import { DEFAULT_MODEL_ID, ensureDefaultModel } from '../src/embedding/default-model.js';
import { folderChecksum, loadEmbedder } from '../src/embedding/embedder.js';
import type { Embedder } from '../src/embedding/types.js';
import type { Manifest } from '../src/index/manifest.js';
import { DEFAULT_CHUNK_OPTIONS, type ChunkOptions } from './chunk/chunk.js';
import { CorpusDigests } from './write/corpus-digests.js';
import { chunkCorpus, DEFAULT_FILE_LIMITS } from './parse/chunk-corpus.js';
import { type Remembered, rememberedFailures } from './parse/failed-parse.js';
import { corpusChecksum, unchangedBuild } from './reindex/index-status.js';
import { loadCorpus, type CorpusDocument } from './load/load-corpus.js';
import { ParseFailures } from './parse/parse-failures.js';
import { SkipLog, type SkipSummary } from './load/skipped-files.js';
import { corpusRoots } from './sources/corpus-roots.js';
import { chunkedAlike, previousBuild, readPreviousData, type PreviousBuild } from './reindex/previous-build.js';
import { vectorCacheDirOf } from './write/vector-cache.js';
import { StreamedSections } from './write/streamed-sections.js';
import { manifestSettings } from './manifest-settings.js';
import type { BuildOptions, BuildSummary } from './build-options.js';
import { embedAndWrite } from './embed-and-write.js';

/** corpus → load ▸ chunk ▸ embed (through the cache) ▸ lexical (+ HNSW where searched) ▸ index-data, atomically. */

export type { BuildOptions, BuildSummary } from './build-options.js';

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
  const remembered = rememberedFailures(corpus, { timeoutMs, failures }, skips);
  const leftOut = [...remembered.values()].filter((known) => known === 'left-out').length;
  // A page to parse again under a raised limit makes another index, whatever the manifest says.
  const parseAgain = [...remembered.values()].includes('parse-again');
  const live = !parseAgain && (await liveBuildIfUnchanged(options, corpus, leftOut, chunkOptions, log));
  if (live) {
    return { ...unchangedSummary(live.buildDir, live.manifest, started, remembered), ...skips.summary() };
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
  const embedder = Promise.withResolvers<Embedder>();
  // Nothing carries over from a previous build chunked otherwise: every section is new, so each
  // document's go to embedding and the lexical statistics as its parse comes in.
  const streamed = carriesNothing(previous, chunkOptions)
    ? new StreamedSections(embedder.promise, options.vectorCacheDir, options, log)
    : undefined;
  // The parser processes start (and every document is sent) before the model loads, beside them.
  const chunking = chunkCorpus(corpus, previous, chunkOptions, limit, skips, streamed?.add);
  const ownsEmbedder = options.embedder === undefined;
  embedder.resolve(options.embedder ?? loadModel(options, log));
  // Awaited once the parse is done; a failed load met before then must not end the process.
  embedder.promise.catch(() => {});
  try {
    const chunked = await chunking;
    failures.save();
    const data = await previousData;
    const model = await embedder.promise;
    const summary = await embedAndWrite(
      options,
      { corpus, chunkOptions, chunked, previous, data },
      model,
      log,
      streamed && (await streamed.finish()),
    );
    return { ...summary, ...skips.summary(), seconds: (performance.now() - started) / 1000 };
  } finally {
    if (ownsEmbedder) await embedder.promise.then((model) => model.dispose()).catch(() => {});
  }
}

/** A build whose previous one (if any) was chunked otherwise keeps none of its sections, vectors or statistics. */
function carriesNothing(previous: PreviousBuild | undefined, chunkOptions: ChunkOptions): boolean {
  return previous === undefined || !chunkedAlike(previous, chunkOptions);
}

function loadModel(options: BuildOptions, log: (line: string) => void): Promise<Embedder> {
  return loadEmbedder({
    model: options.model,
    allowRemote: options.allowRemoteModels ?? false,
    cacheDir: options.cacheDir,
    log,
  });
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
  remembered: ReadonlyMap<CorpusDocument, Remembered>,
): Omit<BuildSummary, keyof SkipSummary> {
  const named = (...as: Remembered[]) =>
    [...remembered].filter(([, known]) => as.includes(known)).map(([doc]) => `${doc.kb}/${doc.path}`);
  return {
    buildDir,
    documents: manifest.corpus.documents,
    sections: manifest.sections,
    knowledgeBases: manifest.corpus.knowledgeBases,
    sectionsEmbedded: 0,
    sectionsReused: manifest.sections,
    documentsParsed: 0,
    skipped: named('left-out'),
    // The pages this build knows to be plain text without parsing: those of the live build's own failed parses are not known.
    plainText: named('plain'),
    remembered: named('plain', 'left-out'),
    changes: { added: [], changed: [], removed: [] },
    seconds: (performance.now() - started) / 1000,
    unchanged: true,
  };
}
