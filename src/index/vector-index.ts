import hnswlib from 'hnswlib-node';

/**
 * Nearest-neighbour search over unit-length section vectors, behind one small face so tests and
 * benchmarks can swap approximate (HNSW) and exact search and compare them.
 */
export interface VectorHits {
  ids: number[];
  /** Cosine similarity, best first. */
  scores: number[];
}

export interface VectorIndex {
  readonly size: number;
  search(query: Float32Array, k: number): VectorHits;
}

/** HNSW settings; their schema (manifest.ts) stays out of this module, which search workers import. */
export interface HnswParams {
  m: number;
  efConstruction: number;
  efSearch: number;
  seed: number;
}

export const DEFAULT_HNSW_PARAMS: HnswParams = { m: 16, efConstruction: 200, efSearch: 128, seed: 100 };

/**
 * The graph's parameters for an index of `sections`, recorded in its manifest. Small indexes keep
 * the defaults (recall@10 ≥ 0.99 up to 10k sections); larger ones, whose near-duplicate clusters
 * (versioned copies of the same page) trap a sparse graph, get more links per node and a wider
 * search: at 100k the defaults found 0.934 of the exact top 10 (bench/results/summary.md, Scale).
 */
export function hnswParamsFor(sections: number): HnswParams {
  if (sections <= 20_000) return DEFAULT_HNSW_PARAMS;
  // 100k (M 24): recall@10 0.978 at efSearch 256, 0.991 at 512, 1.000 at 800 in 0.94 ms, 14× faster than exact.
  if (sections <= 200_000) return { ...DEFAULT_HNSW_PARAMS, m: 24, efConstruction: 200, efSearch: 800 };
  return { ...DEFAULT_HNSW_PARAMS, m: 32, efConstruction: 200, efSearch: 400 };
}

/** Flat row-major matrix of `count` vectors of `dims` floats. */
export interface VectorMatrix {
  dims: number;
  data: Float32Array;
}

export function rowCount(matrix: VectorMatrix): number {
  return matrix.dims === 0 ? 0 : matrix.data.length / matrix.dims;
}

/** Brute force: a dot product against every row (the vectors are unit length). */
export class ExactVectorIndex implements VectorIndex {
  constructor(private readonly matrix: VectorMatrix) {}

  get size(): number {
    return rowCount(this.matrix);
  }

  search(query: Float32Array, k: number): VectorHits {
    const { dims, data } = this.matrix;
    const n = this.size;
    const sims = new Float32Array(n);
    for (let row = 0; row < n; row++) {
      let dot = 0;
      const base = row * dims;
      for (let d = 0; d < dims; d++) dot += data[base + d]! * query[d]!;
      sims[row] = dot;
    }
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => sims[b]! - sims[a]!);
    const ids = order.slice(0, Math.min(k, n));
    return { ids, scores: ids.map((i) => sims[i]!) };
  }
}

export class HnswVectorIndex implements VectorIndex {
  private constructor(
    private readonly index: hnswlib.HierarchicalNSW,
    readonly size: number,
  ) {}

  static build(matrix: VectorMatrix, params: HnswParams = DEFAULT_HNSW_PARAMS): HnswVectorIndex {
    const n = rowCount(matrix);
    const index = new hnswlib.HierarchicalNSW('cosine', matrix.dims);
    index.initIndex({
      maxElements: Math.max(1, n),
      m: params.m,
      efConstruction: params.efConstruction,
      randomSeed: params.seed,
    });
    for (let row = 0; row < n; row++) {
      index.addPoint(Array.from(matrix.data.subarray(row * matrix.dims, (row + 1) * matrix.dims)), row);
    }
    index.setEf(params.efSearch);
    return new HnswVectorIndex(index, n);
  }

  static async load(path: string, dims: number, expectedSize: number, params: HnswParams): Promise<HnswVectorIndex> {
    const index = new hnswlib.HierarchicalNSW('cosine', dims);
    await index.readIndex(path);
    const size = index.getCurrentCount();
    if (size !== expectedSize) throw new Error(`${path} holds ${size} vectors but the manifest says ${expectedSize}`);
    index.setEf(params.efSearch);
    return new HnswVectorIndex(index, size);
  }

  /** Sets how many candidates a search keeps (a benchmark's sweep; the server uses the manifest's). */
  setEfSearch(ef: number): void {
    this.index.setEf(ef);
  }

  /** The section number stored with each vector (what a search returns as ids). */
  labels(): number[] {
    return this.index.getIdsList();
  }

  async save(path: string): Promise<void> {
    await this.index.writeIndex(path);
  }

  search(query: Float32Array, k: number): VectorHits {
    const n = Math.min(k, this.size);
    if (n === 0) return { ids: [], scores: [] };
    const { neighbors, distances } = this.index.searchKnn(Array.from(query), n);
    return { ids: neighbors, scores: distances.map((d) => 1 - d) };
  }
}
