import { join } from 'node:path';
import { INDEX_FILES } from '../index/format.js';
import { type IndexWithoutGraph, readIndexWithoutGraph } from '../index/open-index.js';
import { readBuildGraph } from '../index/read-index.js';
import type { VectorMatrix } from '../index/vector-index.js';
import {
  checkRequestedModel,
  Engine,
  type EngineIndex,
  type EngineOptions,
  type SearchRunner,
  searchParts,
  withModel,
} from '../search/engine.js';
import { checkSearchInput } from '../search/search-input.js';
import { embedsQuery, type SearchPolicy, searchesGraph } from '../search/search-policy.js';
import type { SearchParts } from '../search/searcher-types.js';
import type { SearchPool } from './pool.js';

/**
 * An index served by a search pool: the same engine as in-process (src/search/engine.ts), whose
 * runner hands the searching to the pool's workers. The main thread keeps what responses and
 * page resources need (documents, section headings and text, the manifest) and hands the workers
 * the rest as shared arrays; it also embeds each query.
 */

export type PooledEngine = Engine<EngineIndex>;

/** The matrix in shared memory: as it is when the reader already put it there, else copied. */
function shared(matrix: VectorMatrix): VectorMatrix {
  if (matrix.data.buffer instanceof SharedArrayBuffer) return matrix;
  const data = new Float32Array(new SharedArrayBuffer(matrix.data.byteLength));
  data.set(matrix.data);
  return { dims: matrix.dims, data };
}

/**
 * The search parts of `index` with every big array in shared memory (the reader put most there):
 * what each worker is handed. The postings and section text stay on disk; each worker reads what
 * its searches need.
 */
function sharedParts(index: IndexWithoutGraph): SearchParts {
  const parts = searchParts(index);
  return {
    ...parts,
    vectors: shared(parts.vectors),
  };
}

/** Searches of one generation of the pool. Input errors are refused here, before a search is sent. */
function poolRunner(pool: SearchPool, generation: number, prefetch: boolean): SearchRunner {
  return {
    search(term, options, embedder) {
      const { text } = checkSearchInput(term, options);
      // The query's own vector is all such a search embeds: embed it here, up front.
      const vector = prefetch ? () => embedder.embed([text]).then((v) => v[0]!) : undefined;
      return pool.search(generation, term, options, vector);
    },
    release: () => pool.unload(generation),
  };
}

/** openEngine's counterpart for a pool: reads and checks the index, then loads it into every worker. */
export async function openPooledEngine(
  pool: SearchPool,
  indexDir: string,
  options: EngineOptions = {},
  policy: SearchPolicy = {},
): Promise<PooledEngine> {
  const index = await readIndexWithoutGraph(indexDir);
  // Where searches read the graph, it is checked here while the workers load the index and this
  // thread loads the model: read whole (loaded by hnswlib off this thread, then dropped: workers
  // load their own), so a damaged graph is refused at start. A graph searches never read is not opened.
  const graphChecked = searchesGraph({ ...index.manifest.fusion, ...policy.fusion }, policy)
    ? readBuildGraph(index.buildDir, index.manifest).then((graph) => graph.free())
    : Promise.resolve();
  // Awaited below; a rejection meanwhile must not count as unhandled.
  graphChecked.catch(() => undefined);
  checkRequestedModel(index, options.model);
  // The workers load the index while this thread loads the model.
  const hnsw = {
    path: join(index.buildDir, INDEX_FILES.hnsw),
    dims: index.manifest.model.dimensions,
    size: index.manifest.sections,
    params: index.manifest.hnsw,
  };
  const { generation, loaded } = pool.load(sharedParts(index), hnsw, policy);
  // The server embeds queries only: the table's rows are read from the model file as needed.
  return withModel(
    index,
    options,
    'file',
    async (embedder, owns) => {
      await graphChecked;
      await loaded;
      const { buildDir, manifest, documents, sections, profiles } = index;
      const prefetch = embedsQuery(policy);
      return new Engine(
        { buildDir, manifest, documents, sections, profiles },
        embedder,
        owns,
        poolRunner(pool, generation, prefetch),
      );
    },
    () => pool.unload(generation),
  );
}
