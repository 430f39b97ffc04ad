import type { Embedder } from '../../src/embedding/types.js';
import type { VectorMatrix } from '../../src/index/vector-index.js';
import { cacheKey, type VectorCache } from './vector-cache.js';

/** The embed step of a build: section texts to vectors, through the vector cache. */

export type BuildPhase = 'embed-sections' | 'index-documents';
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
): Promise<{ matrix: VectorMatrix; embedded: number }> {
  const total = texts.length;
  let cached = 0;
  const onBatch = (embedded: number) => options.onProgress?.({ phase, done: cached + embedded, total });
  const embedding = new StreamedEmbedding(embedder, cache, { ...options, onBatch });
  cached = total - embedding.lookUp(texts);
  onBatch(0);
  return embedding.finish();
}

/**
 * Texts to vectors through the cache, given a document at a time, in order, while later documents
 * are still being parsed: each text is looked up in the cache as it comes, and the others are
 * embedded in batches of `batchSize` (the vectors are the same, text by text, whatever the batches;
 * embedThroughCache gives all its texts at once).
 */
export class StreamedEmbedding {
  private data: Float32Array;
  private count = 0;
  /** Texts the cache did not have, not yet embedded: their places and keys. */
  private missing: { at: number; key: string; text: string }[] = [];
  private embedded = 0;
  /**
   * The vectors this build embedded (the cache hands back the same arrays): a later text found
   * with one of them was not in the cache when the build began, and counts as embedded, as
   * embedThroughCache, which looks every text up first, counts it.
   */
  private readonly own = new WeakSet<Float32Array>();
  private repeats = 0;
  private readonly batchSize: number;

  constructor(
    private readonly embedder: Embedder,
    private readonly cache: VectorCache,
    private readonly options: Pick<EmbedOptions, 'batchSize' | 'afterBatch'> & { onBatch?: (embedded: number) => void },
  ) {
    this.batchSize = options.batchSize ?? 64;
    this.data = new Float32Array(1024 * embedder.dimensions);
  }

  /** Takes the next texts; embeds every full batch of those the cache lacks. */
  async add(texts: readonly string[]): Promise<void> {
    this.lookUp(texts);
    while (this.missing.length >= this.batchSize) await this.embedBatch();
  }

  /** Takes the next texts, the cache's vectors in place; how many of those taken so far wait to be embedded. */
  lookUp(texts: readonly string[]): number {
    const dims = this.embedder.dimensions;
    if ((this.count + texts.length) * dims > this.data.length) {
      const grown = new Float32Array(Math.max(this.data.length * 2, (this.count + texts.length) * dims));
      grown.set(this.data);
      this.data = grown;
    }
    for (const text of texts) {
      const key = cacheKey(text);
      const v = this.cache.get(key);
      if (v) {
        this.data.set(v, this.count * dims);
        if (this.own.has(v)) this.repeats++;
      } else this.missing.push({ at: this.count, key, text });
      this.count++;
    }
    return this.missing.length;
  }

  /** Embeds what is left; every text's vector, in the order given. */
  async finish(): Promise<{ matrix: VectorMatrix; embedded: number }> {
    while (this.missing.length > 0) await this.embedBatch();
    const dims = this.embedder.dimensions;
    return { matrix: { dims, data: this.data.slice(0, this.count * dims) }, embedded: this.embedded + this.repeats };
  }

  private async embedBatch(): Promise<void> {
    const batch = this.missing.splice(0, this.batchSize);
    const vectors = await this.embedder.embed(batch.map((m) => m.text));
    batch.forEach((m, j) => {
      this.data.set(vectors[j]!, m.at * this.embedder.dimensions);
      this.cache.set(m.key, vectors[j]!);
      this.own.add(vectors[j]!);
    });
    this.embedded += batch.length;
    this.options.onBatch?.(this.embedded);
    await this.options.afterBatch?.(this.embedded);
  }
}
