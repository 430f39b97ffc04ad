import { DEFAULT_MODEL_ID } from '../embedding/default-model.js';
import { loadEmbedder } from '../embedding/embedder.js';
import type { TableRowsMode } from '../embedding/lookup-embedder.js';
import type { Embedder } from '../embedding/types.js';
import { ProblemError } from '../errors.js';
import type { StoredDocument } from '../index/format.js';
import type { Manifest } from '../index/manifest.js';
import { type IndexWithoutGraph, readIndexWithoutGraph } from '../index/open-index.js';
import { hasGraph, readBuildGraph } from '../index/read-index.js';
import { ExactVectorIndex, HnswVectorIndex } from '../index/vector-index.js';
import type { KnowledgeBaseProfile } from '../index/corpus-profile.js';
import { withSections } from './result-window.js';
import { type SearchPolicy, searchesGraph } from './search-policy.js';
import { Searcher } from './searcher.js';
import type { DetailedSearch, RankedResult, SearchParts } from './searcher-types.js';
import type { IndexSummary, SearchEngine, SearchOptions, SearchResult } from './types.js';

/**
 * An index opened with its model: one engine, whose searches run in this thread (openEngine,
 * here) or in a search pool's workers (openPooledEngine, src/serve/pool-engine.ts). Both keep
 * the same things in this thread (the manifest, the documents and sections responses are made
 * of, the model that embeds queries) and differ only in their runner.
 */

/** How an index is opened: what a library user, the CLI and the server choose. */
export interface EngineOptions {
  /** An embedder already loaded (tests, benchmarks, reload); otherwise the manifest's model is loaded. */
  embedder?: Embedder;
  /** The model the caller expects; a different one in the manifest is an error. */
  model?: string;
  allowRemoteModels?: boolean;
  /** The cache folder the model is looked up in (the default model's, downloaded ones'); default: the svc-docs folder's. */
  cacheDir?: string;
}

/** The index was built with another model than the one asked for or loaded. */
export class ModelMismatchError extends ProblemError<'model_mismatch'> {
  override name = 'ModelMismatchError';

  constructor(problem: string, advice: string) {
    super('model_mismatch', problem, advice);
  }
}

/** What every engine keeps of its index in this thread: what responses, page resources and reloads read. */
export interface EngineIndex
  extends Readonly<Pick<IndexWithoutGraph, 'buildDir' | 'manifest' | 'sections' | 'profiles'>> {
  readonly documents: readonly StoredDocument[];
}

/** Where an engine's searches run: a Searcher in this thread, or a search pool's workers. */
export interface SearchRunner {
  search(term: string, options: SearchOptions, embedder: Embedder): Promise<DetailedSearch<RankedResult>>;
  /** Lets go of what the runner holds of the index (a pool's copy in its workers); once. */
  release(): void;
}

export class Engine<I extends EngineIndex = EngineIndex> implements SearchEngine {
  private readonly profiles: KnowledgeBaseProfile[];
  private released = false;

  constructor(
    readonly index: I,
    readonly embedder: Embedder,
    /** This engine loaded its embedder (rather than being handed one), so closing it disposes it. */
    private readonly ownsEmbedder: boolean,
    private readonly runner: SearchRunner,
  ) {
    this.profiles = index.profiles;
  }

  summary(): IndexSummary {
    return indexSummary(this.index.manifest, this.profiles);
  }

  async search(term: string, options?: SearchOptions): Promise<SearchResult[]> {
    return (await this.searchDetailed(term, options)).results;
  }

  async searchDetailed(term: string, options: SearchOptions = {}): Promise<DetailedSearch> {
    const detailed = await this.runner.search(term, options, this.embedder);
    const t = performance.now();
    const results = detailed.results.map((r) => withSections(r, this.index));
    detailed.timings.windowMs += performance.now() - t;
    return { ...detailed, results };
  }

  /** Frees the index (a pool's copy in its workers, the files it reads) without touching a shared embedder. */
  releaseIndex(): Promise<void> {
    if (!this.released) this.runner.release();
    this.index.sections.close();
    this.released = true;
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.releaseIndex();
    if (this.ownsEmbedder) await this.embedder.dispose();
  }
}

/** An index as an in-process engine holds it: with its HNSW graph where its searches read it. */
export type InProcessIndex = IndexWithoutGraph & { hnsw?: HnswVectorIndex };

/** An engine searching in this thread. */
export type LoadedEngine = Engine<InProcessIndex>;

/** Opens the current index in `indexDir` with the model it was built with; searches run in this thread. */
export async function openEngine(
  indexDir: string,
  options: EngineOptions = {},
  policy: SearchPolicy = {},
): Promise<LoadedEngine> {
  const opened = await readIndexWithoutGraph(indexDir);
  checkRequestedModel(opened, options.model);
  const index: InProcessIndex = { ...opened, ...(await graphFor(opened, policy)) };
  return withModel(index, options, undefined, async (embedder, owns) => {
    const searcher = new Searcher(searchParts(index), index.hnsw ?? new ExactVectorIndex(index.vectors), policy);
    const runner: SearchRunner = {
      search: (term, searchOptions, model) => searcher.search(term, searchOptions, (texts) => model.embed(texts)),
      // The graph is native memory V8 cannot see: freed now, not whenever V8 collects its wrapper.
      release: () => {
        searcher.close();
        index.hnsw?.free();
      },
    };
    return new Engine(index, embedder, owns, runner);
  });
}

/**
 * The graph, read and verified, where searches read it (searchesGraph, or vectorSearch 'hnsw'
 * asked for); otherwise it is not opened and exact search stands in.
 * A build whose own searches never read a graph has none (indexer/build.ts): a policy that asks
 * for one (a benchmark, a test) gets it built here, with the manifest's parameters.
 */
async function graphFor(index: IndexWithoutGraph, policy: SearchPolicy): Promise<{ hnsw?: HnswVectorIndex }> {
  const fusion = { ...index.manifest.fusion, ...policy.fusion };
  if (policy.vectorSearch === 'hnsw' || (policy.vectorSearch !== 'exact' && searchesGraph(fusion, policy)))
    return {
      hnsw: hasGraph(index.manifest)
        ? await readBuildGraph(index.buildDir, index.manifest)
        : HnswVectorIndex.build(index.vectors, index.manifest.hnsw),
    };
  return {};
}

/** The parts of an opened index a search uses, read off it as they are (nothing copied). */
export function searchParts(index: IndexWithoutGraph): SearchParts {
  return {
    manifest: index.manifest,
    documents: index.documents,
    sections: index.sections.parts,
    parents: index.parents,
    vectors: index.vectors,
    lexical: index.lexical,
  };
}

/** Refuses an index built with another model than the one the caller names. */
export function checkRequestedModel(index: { buildDir: string; manifest: Manifest }, model: string | undefined): void {
  const built = index.manifest.model;
  if (model === undefined || sameModel(model, built.id)) return;
  throw new ModelMismatchError(
    `${index.buildDir}/manifest.json was built with model ${built.id} (${built.dimensions} dims) but the server is configured for ${model}`,
    `run 'svc-docs index --model ${model}' or drop --model`,
  );
}

/**
 * Runs `open` with the embedder given, or the index's own model loaded, once checked against the
 * index. When opening fails, `undo` runs and a model loaded here is disposed.
 */
export async function withModel<T>(
  index: { buildDir: string; manifest: Manifest },
  options: EngineOptions,
  tableRows: TableRowsMode | undefined,
  open: (embedder: Embedder, owns: boolean) => Promise<T>,
  undo: () => void = () => {},
): Promise<T> {
  const owns = options.embedder === undefined;
  let embedder: Embedder | undefined;
  try {
    embedder =
      options.embedder ??
      (await loadEmbedder({
        model: index.manifest.model.id,
        allowRemote: options.allowRemoteModels ?? false,
        cacheDir: options.cacheDir,
        tableRows,
      }));
    checkModel(index, embedder);
    return await open(embedder, owns);
  } catch (error) {
    undo();
    if (owns) await embedder?.dispose();
    throw error;
  }
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

function indexSummary(m: Manifest, profiles: KnowledgeBaseProfile[]): IndexSummary {
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
