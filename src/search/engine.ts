import { DEFAULT_MODEL_ID } from '../embedding/default-model.js';
import { ProblemError } from '../errors.js';
import { loadEmbedder } from '../embedding/embedder.js';
import type { Embedder } from '../embedding/types.js';
import { sectionRoles } from '../index/format.js';
import type { Manifest } from '../index/manifest.js';
import { readIndex, type LoadedIndex } from '../index/read-index.js';
import { ExactVectorIndex } from '../index/vector-index.js';
import { profileCorpus, type KnowledgeBaseProfile } from './corpus-profile.js';
import { Searcher } from './searcher.js';
import { withSections } from './result-window.js';
import type { DetailedSearch, EngineOptions, SearchParts } from './searcher-types.js';
import type { IndexSummary, SearchEngine, SearchOptions, SearchResult } from './types.js';

/** Opens an index with its model and searches it in this thread (the server may use a pool: pool-engine.ts). */

/** The index was built with another model than the one asked for or loaded. */
export class ModelMismatchError extends ProblemError<'model_mismatch'> {
  override name = 'ModelMismatchError';

  constructor(problem: string, advice: string) {
    super('model_mismatch', problem, advice);
  }
}

export interface LoadedEngine extends SearchEngine {
  searchDetailed(term: string, options?: SearchOptions): Promise<DetailedSearch>;
  readonly index: LoadedIndex;
  readonly embedder: Embedder;
  close(): Promise<void>;
}

/** Opens the current index in `indexDir` with the model it was built with. */
export async function openEngine(indexDir: string, options: EngineOptions = {}): Promise<LoadedEngine> {
  const index = await readIndex(indexDir);
  const built = index.manifest.model;
  if (options.model !== undefined && !sameModel(options.model, built.id)) {
    throw new ModelMismatchError(
      `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims) but the server is configured for ${options.model}`,
      `run 'svc-docs index --model ${options.model}' or drop --model`,
    );
  }
  const ownsEmbedder = options.embedder === undefined;
  const embedder =
    options.embedder ??
    (await loadEmbedder({
      model: built.id,
      allowRemote: options.allowRemoteModels ?? false,
      cacheDir: options.cacheDir,
    }));
  try {
    checkModel(index, embedder);
  } catch (error) {
    if (ownsEmbedder) await embedder.dispose();
    throw error;
  }
  return new Engine(index, embedder, ownsEmbedder, options);
}

/** Refuses an embedder other than the one the index was built with. */
export function checkModel(
  index: { buildDir: string; manifest: Manifest },
  embedder: Pick<Embedder, 'modelId' | 'checksum' | 'dimensions'>,
): void {
  const built = index.manifest.model;
  if (embedder.checksum !== built.checksum || embedder.dimensions !== built.dimensions) {
    throw new ModelMismatchError(
      `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims, checksum ${built.checksum.slice(0, 12)}) but the server loads ${embedder.modelId} (${embedder.dimensions} dims, checksum ${embedder.checksum.slice(0, 12)})`,
      "run 'svc-docs index'",
    );
  }
}

export function sameModel(a: string, b: string): boolean {
  const norm = (m: string) => (m === 'default' ? DEFAULT_MODEL_ID : m);
  return norm(a) === norm(b);
}

/** The parts of a loaded index a search uses, read off it as they are (nothing copied). */
function searchParts(index: LoadedIndex): SearchParts {
  return {
    manifest: index.manifest,
    documents: index.documents,
    headings: index.sections.map((s) => s.headings),
    roles: sectionRoles(index.sections),
    sectionDoc: Int32Array.from(index.sections, (s) => s.doc),
    vectors: index.vectors,
    expansion: index.expansion,
    lexical: index.lexical,
  };
}

class Engine implements LoadedEngine {
  private readonly searcher: Searcher;
  private readonly profiles: KnowledgeBaseProfile[];

  constructor(
    readonly index: LoadedIndex,
    readonly embedder: Embedder,
    private readonly ownsEmbedder: boolean,
    options: EngineOptions,
  ) {
    const vectors = options.vectorSearch === 'exact' ? new ExactVectorIndex(index.vectors) : index.hnsw;
    this.searcher = new Searcher(searchParts(index), vectors, options);
    this.profiles = profileCorpus(index);
  }

  summary(): IndexSummary {
    return indexSummary(this.index.manifest, this.profiles);
  }

  async search(term: string, options?: SearchOptions): Promise<SearchResult[]> {
    return (await this.searchDetailed(term, options)).results;
  }

  async searchDetailed(term: string, options: SearchOptions = {}): Promise<DetailedSearch> {
    const detailed = await this.searcher.search(term, options, (texts) => this.embedder.embed(texts));
    const t = performance.now();
    const results = detailed.results.map((r) => withSections(r, this.index));
    detailed.timings.windowMs += performance.now() - t;
    return { ...detailed, results };
  }

  async close(): Promise<void> {
    if (this.ownsEmbedder) await this.embedder.dispose();
  }
}

export function indexSummary(m: Manifest, profiles: KnowledgeBaseProfile[]): IndexSummary {
  return {
    profiles,
    formatVersion: m.formatVersion,
    modelId: m.model.id,
    dimensions: m.model.dimensions,
    documents: m.corpus.documents,
    sections: m.sections,
    knowledgeBases: m.corpus.knowledgeBases,
    builtAt: m.builtAt,
  };
}
