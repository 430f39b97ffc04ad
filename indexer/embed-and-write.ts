import type { Embedder } from '../src/embedding/types.js';
import { HnswVectorIndex, type HnswParams } from '../src/index/vector-index.js';
import type { ChunkOptions } from './chunk/chunk.js';
import type { ChunkedCorpus } from './parse/chunk-corpus.js';
import { updateGraph } from './reindex/hnsw-update.js';
import { corpusChecksum } from './reindex/index-status.js';
import type { CorpusDocument } from './load/load-corpus.js';
import type { SkipSummary } from './load/skipped-files.js';
import { embeddingText, lexicalFields } from './write/section-text.js';
import {
  type Carried,
  carriedFrom,
  carriedVectors,
  diffDocuments,
  type PreviousBuild,
  type PreviousData,
} from './reindex/previous-build.js';
import { lexicalData } from './write/section-tokens.js';
import { type BuildPhase, embedThroughCache } from './write/embed.js';
import { VectorCache } from './write/vector-cache.js';
import type { StreamedContent } from './write/streamed-sections.js';
import { writeIndex, type ManifestDraft } from './write/write-index.js';
import { manifestSettings } from './manifest-settings.js';
import type { BuildOptions, BuildSummary } from './build-options.js';

/** A build's last steps (indexer/build.ts): the vectors and statistics, the graph, the files. */

export interface Chunked {
  corpus: CorpusDocument[];
  chunkOptions: ChunkOptions;
  chunked: ChunkedCorpus;
  previous: PreviousBuild | undefined;
  data: PreviousData | undefined;
}

/**
 * Embeds (through the cache) and builds or updates the lexical statistics, unless `streamed` did
 * as the documents came in; builds or updates the graph, and writes the build.
 */
export async function embedAndWrite(
  options: BuildOptions & { vectorCacheDir: string },
  chunkedCorpus: Chunked,
  embedder: Embedder,
  log: (line: string) => void,
  streamed: StreamedContent | undefined,
): Promise<Omit<BuildSummary, keyof SkipSummary>> {
  const { chunked, previous, data } = chunkedCorpus;
  const { documents, sections } = chunked;
  const settings = manifestSettings(options, chunkedCorpus.chunkOptions);
  const hnswParams = settings.hnsw(sections.length);
  const carried = streamed ? undefined : carriedFrom(previous, data, documents, sections, embedder, hnswParams);
  const { vectors: sectionVectors, lexical } =
    streamed ?? (await embedAfterParse(options, chunked, carried, embedder, log));
  // The graph only where searches read it: a static model's never do (docs/how-search-works.md, Fusion).
  const hnsw = settings.graph(settings.fusion(embedder.modelId))
    ? ((carried?.graph && updateGraph(carried.graph, carried.oldOf, sectionVectors.matrix)) ??
      HnswVectorIndex.build(sectionVectors.matrix, hnswParams))
    : undefined;
  const draft = manifestDraft(options, embedder, chunkedCorpus, hnswParams);
  const content = { documents, sections, vectors: sectionVectors.matrix, lexical };
  const buildDir = await writeIndex(options.outDir, draft, content, hnsw);
  await options.keep?.keep(buildDir, content, hnsw);
  return {
    buildDir,
    knowledgeBases: draft.corpus.knowledgeBases,
    ...buildCounts(chunked, previous, sectionVectors.embedded),
  };
}

/** A reindex's vectors and statistics, once every document is parsed: the previous build's carried where they still hold. */
async function embedAfterParse(
  options: BuildOptions & { vectorCacheDir: string },
  { documents, sections }: ChunkedCorpus,
  carried: Carried | undefined,
  embedder: Embedder,
  log: (line: string) => void,
): Promise<StreamedContent> {
  const cache = await VectorCache.open(options.vectorCacheDir, embedder.checksum, embedder.dimensions, log);
  const embed = (texts: string[], phase: BuildPhase) => embedThroughCache(texts, phase, embedder, cache, options);
  const vectors = await carriedVectors(carried, sections.length, embedder.dimensions, (wanted) =>
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
  return { vectors, lexical };
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
    plainText: chunked.plainText,
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
