import { join } from 'node:path';
import { INDEX_FILES, sectionRoles } from '../index/format.js';
import { compactLexical } from '../index/lexical-index.js';
import { type IndexWithoutGraph, readBuildGraph, readIndexWithoutGraph } from '../index/read-index.js';
import type { VectorMatrix } from '../index/vector-index.js';
import {
  checkRequestedModel,
  Engine,
  type EngineIndex,
  type EngineOptions,
  type SearchRunner,
  withModel,
} from '../search/engine.js';
import { checkSearchInput } from '../search/search-input.js';
import { embedsQueryOnly, type SearchPolicy } from '../search/search-policy.js';
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

/** The search parts of `index` with every big array in shared memory: what each worker is handed. */
function sharedParts(index: IndexWithoutGraph, policy: SearchPolicy): SearchParts {
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
    lexical: compactLexical(index.lexical, { ...index.manifest.lexical, ...policy.lexical }),
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
  // The graph is checked here (read, loaded by hnswlib off this thread, then dropped) while the
  // workers load the index and this thread loads the model: a damaged graph is refused at start
  // even where no search reads it. Workers that search it load their own (searchesGraph).
  const graphChecked = readBuildGraph(index.buildDir, index.manifest).then((graph) => graph.free());
  // Awaited below; a rejection meanwhile must not count as unhandled.
  graphChecked.catch(() => undefined);
  checkRequestedModel(index, options.model);
  // The workers load the index while this thread loads the model.
  const hnsw = {
    path: join(index.buildDir, INDEX_FILES.hnsw),
    dims: index.manifest.model.dimensions,
    size: index.sections.length,
    params: index.manifest.hnsw,
  };
  const { generation, loaded } = pool.load(sharedParts(index, policy), hnsw, policy);
  // The server embeds queries only: the table's rows are read from the model file as needed.
  return withModel(
    index,
    options,
    'file',
    async (embedder, owns) => {
      await graphChecked;
      await loaded;
      pool.useEmbedder(generation, embedder);
      const { buildDir, manifest, documents, sections } = index;
      const prefetch = embedsQueryOnly({ ...manifest.fusion, ...policy.fusion }, policy);
      return new Engine(
        { buildDir, manifest, documents, sections },
        embedder,
        owns,
        poolRunner(pool, generation, prefetch),
      );
    },
    () => pool.unload(generation),
  );
}
