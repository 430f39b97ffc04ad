import { INDEX_FILES, sectionRoles } from '../index/format.js';
import { type IndexWithoutGraph, readBuildGraph, readIndexWithoutGraph } from '../index/read-index.js';
import { compactLexical } from '../index/lexical-index.js';
import type { VectorMatrix } from '../index/vector-index.js';
import { loadEmbedder } from '../embedding/embedder.js';
import type { Embedder } from '../embedding/types.js';
import { join } from 'node:path';
import { profileCorpus, type KnowledgeBaseProfile } from '../search/corpus-profile.js';
import { checkModel, indexSummary, ModelMismatchError, sameModel } from '../search/engine.js';
import { checkSearchInput } from '../search/search-input.js';
import {
  embedsQueryOnly,
  type DetailedSearch,
  type EngineOptions,
  type SearchParts,
} from '../search/searcher-types.js';
import { withSections } from '../search/result-window.js';
import type { SearchPool } from './pool.js';
import type { IndexSummary, SearchEngine, SearchOptions, SearchResult } from '../search/types.js';

/**
 * An index served by a search pool: the same face as the in-process engine (`SearchEngine`, plus
 * what live reload needs), with the searching done in the pool's workers. The main thread keeps
 * what responses and page resources need (documents, section headings and text, the manifest)
 * and hands the workers the rest as shared arrays; it also embeds each query.
 */

/** What the main thread keeps of a pooled index. */
interface PooledIndex {
  buildDir: string;
  manifest: IndexWithoutGraph['manifest'];
  documents: IndexWithoutGraph['documents'];
  sections: IndexWithoutGraph['sections'];
}

export class PooledEngine implements SearchEngine {
  private readonly profiles: KnowledgeBaseProfile[];
  private released = false;

  constructor(
    private readonly pool: SearchPool,
    private readonly generation: number,
    readonly index: PooledIndex,
    readonly embedder: Embedder,
    private readonly ownsEmbedder: boolean,
    /** The query's own vector is all a search embeds: embed it here, up front. */
    private readonly prefetch: boolean,
  ) {
    this.profiles = profileCorpus(index);
  }

  summary(): IndexSummary {
    return indexSummary(this.index.manifest, this.profiles);
  }

  async search(term: string, options?: SearchOptions): Promise<SearchResult[]> {
    return (await this.searchDetailed(term, options)).results;
  }

  async searchDetailed(term: string, options: SearchOptions = {}): Promise<DetailedSearch> {
    const { text } = checkSearchInput(term, options);
    const vector = this.prefetch ? () => this.embedder.embed([text]).then((v) => v[0]!) : undefined;
    const detailed = await this.pool.search(this.generation, term, options, vector);
    return { ...detailed, results: detailed.results.map((r) => withSections(r, this.index)) };
  }

  /** Frees the index in the workers (the embedder is the caller's to dispose when shared). */
  releaseIndex(): Promise<void> {
    if (!this.released) this.pool.unload(this.generation);
    this.released = true;
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.releaseIndex();
    if (this.ownsEmbedder) await this.embedder.dispose();
  }
}

/** The matrix in shared memory: as it is when the reader already put it there, else copied. */
function shared(matrix: VectorMatrix): VectorMatrix {
  if (matrix.data.buffer instanceof SharedArrayBuffer) return matrix;
  const data = new Float32Array(new SharedArrayBuffer(matrix.data.byteLength));
  data.set(matrix.data);
  return { dims: matrix.dims, data };
}

/** The search parts of `index` with every big array in shared memory: what each worker is handed. */
function sharedParts(index: IndexWithoutGraph, options: EngineOptions): SearchParts {
  const sectionDoc = new Int32Array(new SharedArrayBuffer(index.sections.length * 4));
  index.sections.forEach((s, i) => (sectionDoc[i] = s.doc));
  return {
    manifest: index.manifest,
    documents: index.documents,
    headings: index.sections.map((s) => s.headings),
    roles: sectionRoles(index.sections, (n) => new Uint8Array(new SharedArrayBuffer(n))),
    sectionDoc,
    vectors: shared(index.vectors),
    expansion: { terms: index.expansion.terms, vectors: shared(index.expansion.vectors) },
    lexical: compactLexical(index.lexical, { ...index.manifest.lexical, ...options.lexical }),
  };
}

/** openEngine's counterpart for a pool: reads and checks the index, then loads it into every worker. */
export async function openPooledEngine(
  pool: SearchPool,
  indexDir: string,
  options: EngineOptions = {},
): Promise<PooledEngine> {
  const index = await readIndexWithoutGraph(indexDir);
  // The graph is checked here (read, loaded by hnswlib off this thread, then dropped) while the
  // workers load the index and this thread loads the model: a damaged graph is refused at start
  // even where no search reads it. Workers that search it load their own (searchesGraph).
  const graphChecked = readBuildGraph(index.buildDir, index.manifest).then(() => undefined);
  // Awaited below; a rejection meanwhile must not count as unhandled.
  graphChecked.catch(() => undefined);
  const built = index.manifest.model;
  if (options.model !== undefined && !sameModel(options.model, built.id)) {
    throw new ModelMismatchError(
      `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims) but the server is configured for ${options.model}`,
      `run 'svc-docs index --model ${options.model}' or drop --model`,
    );
  }
  // The workers load the index while this thread loads the model.
  const { embedder: given, ...workerOptions } = options;
  const hnsw = {
    path: join(index.buildDir, INDEX_FILES.hnsw),
    dims: built.dimensions,
    size: index.sections.length,
    params: index.manifest.hnsw,
  };
  const { generation, loaded } = pool.load(sharedParts(index, options), hnsw, workerOptions);
  const ownsEmbedder = given === undefined;
  let embedder: Embedder | undefined;
  try {
    // The server embeds queries only: the table's rows are read from the model file as needed.
    embedder =
      given ??
      (await loadEmbedder({
        model: built.id,
        allowRemote: options.allowRemoteModels ?? false,
        cacheDir: options.cacheDir,
        tableRows: 'file',
      }));
    checkModel(index, embedder);
    await graphChecked;
    await loaded;
    pool.useEmbedder(generation, embedder);
    const kept: PooledIndex = {
      buildDir: index.buildDir,
      manifest: index.manifest,
      documents: index.documents,
      sections: index.sections,
    };
    const prefetch = embedsQueryOnly({ ...index.manifest.fusion, ...options.fusion }, options);
    return new PooledEngine(pool, generation, kept, embedder, ownsEmbedder, prefetch);
  } catch (error) {
    pool.unload(generation);
    if (ownsEmbedder) await embedder?.dispose();
    throw error;
  }
}
