import type { HnswParams } from '../index/vector-index.js';
import type { SearchPolicy } from '../search/search-policy.js';
import type { DetailedSearch, RankedResult, SearchParts } from '../search/searcher-types.js';
import type { SearchOptions } from '../search/types.js';

/**
 * Messages between the search pool (main thread) and its workers. An index is loaded into every
 * worker under a generation number; its big arrays travel as SharedArrayBuffer views, so every
 * worker reads the one copy the main thread made. The main thread embeds each query (the model
 * runs on its own threads) while the worker runs the lexical stage, and sends the vector after.
 */

export interface HnswFile {
  path: string;
  dims: number;
  size: number;
  params: HnswParams;
}

export type ToWorker =
  | { type: 'load'; generation: number; parts: SearchParts; hnsw: HnswFile; policy: SearchPolicy }
  | { type: 'unload'; generation: number }
  | { type: 'search'; id: number; generation: number; term: string; options: SearchOptions; prefetched: boolean }
  /** The query vector of search `id` (undefined with `error` when embedding failed). */
  | { type: 'vector'; id: number; vector?: Float32Array; error?: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'loaded'; generation: number; error?: string }
  | { type: 'result'; id: number; detailed?: DetailedSearch<RankedResult>; error?: { name: string; message: string } };
