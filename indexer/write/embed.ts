import type { Embedder } from '../../src/embedding/types.js';
import type { VectorMatrix } from '../../src/index/vector-index.js';
import { cacheKey, type VectorCache } from './vector-cache.js';

/** The embed step of a build: section texts to vectors, through the vector cache. */

export type BuildPhase = 'embed-sections';
export interface BuildProgress {
  phase: BuildPhase;
  done: number;
  total: number;
}

export interface EmbedOptions {
  batchSize?: number;
  onProgress?: (progress: BuildProgress) => void;
  /** Test hook: called after each embedded batch, so a test can simulate a crash mid-build. */
  afterBatch?: (embeddedSoFar: number) => void | Promise<void>;
}

/** Vectors for `texts`: from the cache where it has them, the rest embedded in batches (and cached). */
export async function embedThroughCache(
  texts: string[],
  phase: BuildPhase,
  embedder: Embedder,
  cache: VectorCache,
  options: EmbedOptions,
  known?: ReadonlyMap<string, Float32Array>,
): Promise<{ matrix: VectorMatrix; embedded: number }> {
  const batchSize = options.batchSize ?? 64;
  const data = new Float32Array(texts.length * embedder.dimensions);
  const keys: string[] = [];
  const missing: number[] = [];
  texts.forEach((text, i) => {
    // What the previous build holds needs no hashing for the cache.
    const v = known?.get(text) ?? cache.get((keys[i] = cacheKey(text)));
    if (v) data.set(v, i * embedder.dimensions);
    else missing.push(i);
  });
  options.onProgress?.({ phase, done: texts.length - missing.length, total: texts.length });
  for (let start = 0; start < missing.length; start += batchSize) {
    const batch = missing.slice(start, start + batchSize);
    const vectors = await embedder.embed(batch.map((i) => texts[i]!));
    batch.forEach((i, j) => {
      data.set(vectors[j]!, i * embedder.dimensions);
      cache.set(keys[i] ?? cacheKey(texts[i]!), vectors[j]!);
    });
    options.onProgress?.({ phase, done: texts.length - missing.length + start + batch.length, total: texts.length });
    await options.afterBatch?.(start + batch.length);
  }
  return { matrix: { dims: embedder.dimensions, data }, embedded: missing.length };
}
