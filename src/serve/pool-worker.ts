import { parentPort } from 'node:worker_threads';
import { ExactVectorIndex, HnswVectorIndex } from '../index/vector-index.js';
import { Searcher } from '../search/searcher.js';
import type { Embed } from '../search/searcher-types.js';
import { searchesGraph } from '../search/search-policy.js';
import type { FromWorker, ToWorker } from './pool-protocol.js';

/**
 * Search pool worker: holds the loaded indexes by generation (the big arrays are shared views)
 * and answers searches. The HNSW graph is native memory, so each worker that searches it loads
 * its own from the build's file; everything else it searches is shared with the other workers.
 */

function deferred<T>(): PromiseWithResolvers<T> {
  const slot = Promise.withResolvers<T>();
  slot.promise.catch(() => undefined);
  return slot;
}

const port = parentPort!;
const send = (message: FromWorker) => port.postMessage(message);
/** A loaded generation: its searcher, its graph when native, and the searches running on it. */
interface Generation {
  searcher: Searcher;
  graph: HnswVectorIndex | undefined;
  running: number;
  unloaded: boolean;
}
const generations = new Map<number, Generation>();
const vectors = new Map<number, PromiseWithResolvers<Float32Array>>();

/** The query's own vector, which the main thread embeds and sends: the only text a search embeds. */
function embedFor(prefetched: PromiseWithResolvers<Float32Array> | undefined): Embed {
  return async () => {
    if (!prefetched) throw new Error('this search was sent without its query vector');
    return [await prefetched.promise];
  };
}

async function search(message: Extract<ToWorker, { type: 'search' }>): Promise<void> {
  const { id, generation, term, options } = message;
  const prefetched = message.prefetched ? vectors.get(id) : undefined;
  const loaded = generations.get(generation);
  if (loaded) loaded.running++;
  try {
    if (!loaded) throw new Error(`index generation ${generation} is not loaded in this worker`);
    const detailed = await loaded.searcher.search(term, options, embedFor(prefetched));
    send({ type: 'result', id, detailed });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    send({ type: 'result', id, error: { name: e.name, message: e.message } });
  } finally {
    vectors.delete(id);
    if (loaded && --loaded.running === 0 && loaded.unloaded) release(loaded);
  }
}

/** Frees a forgotten generation's graph (native memory) and closes the index files its searcher reads. */
function release(loaded: Generation): void {
  loaded.graph?.free();
  loaded.searcher.close();
}

/** Forgets a generation; its graph and open files are released once the searches running on it end. */
function unload(generation: number): void {
  const loaded = generations.get(generation);
  if (!loaded) return;
  generations.delete(generation);
  loaded.unloaded = true;
  if (loaded.running === 0) release(loaded);
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'load': {
      const { generation, parts, hnsw, policy } = message;
      // The graph is native memory, loaded only where searches read it; else the exact index
      // over the shared vectors stands in (what vectorSearch 'exact' asks for anyway).
      const graph =
        policy.vectorSearch !== 'exact' && searchesGraph({ ...parts.manifest.fusion, ...policy.fusion }, policy)
          ? HnswVectorIndex.load(hnsw.path, hnsw.dims, hnsw.size, hnsw.params)
          : Promise.resolve(new ExactVectorIndex(parts.vectors));
      graph
        .then((index) => {
          const graph = index instanceof HnswVectorIndex ? index : undefined;
          generations.set(generation, {
            searcher: new Searcher(parts, index, policy),
            graph,
            running: 0,
            unloaded: false,
          });
          send({ type: 'loaded', generation });
        })
        .catch((error: unknown) => send({ type: 'loaded', generation, error: (error as Error).message }));
      break;
    }
    case 'unload':
      unload(message.generation);
      break;
    case 'search':
      // The vector message follows this one: its slot must exist before it arrives.
      if (message.prefetched) vectors.set(message.id, deferred());
      void search(message);
      break;
    case 'vector': {
      const slot = vectors.get(message.id);
      if (message.vector) slot?.resolve(message.vector);
      else slot?.reject(new Error(message.error ?? 'the query could not be embedded'));
      break;
    }
  }
});

send({ type: 'ready' });
