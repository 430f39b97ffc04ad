import { readFile, writeFile } from 'node:fs/promises';
import hnswlib from 'hnswlib-node';
import { KeyedHeap } from './keyed-heap.js';

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

const DEFAULT_HNSW_PARAMS: HnswParams = { m: 16, efConstruction: 200, efSearch: 128, seed: 100 };

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

/**
 * Brute force: a dot product against every row (the vectors are unit length), keeping the best
 * `k` in a min-heap, so a search is one pass over the matrix and no sort of every row. For an
 * index of a few thousand sections this is faster than the HNSW graph, and exact.
 */
export class ExactVectorIndex implements VectorIndex {
  constructor(private readonly matrix: VectorMatrix) {}

  get size(): number {
    return rowCount(this.matrix);
  }

  search(query: Float32Array, k: number): VectorHits {
    const { dims, data } = this.matrix;
    const n = this.size;
    const keep = Math.min(k, n);
    if (keep <= 0) return { ids: [], scores: [] };
    // Rows are offered in order, so the heap's key (the first offered wins a tie) is the row itself.
    const heap = new KeyedHeap(keep);
    for (let row = 0, base = 0; row < n; row++, base += dims) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += data[base + d]! * query[d]!;
      heap.offer(row, dot, row, 0, 0);
    }
    const best = heap.sorted(0);
    return { ids: Array.from(best.sections), scores: Array.from(best.scores) };
  }
}

/**
 * The HNSW graph's labels are slots, not section numbers: a reindex moves sections (an edit earlier
 * in the corpus renumbers every section after it) and replaces changed ones in their slots rather
 * than rebuilding the graph, and hnswlib cannot relabel an element. `sectionOf[label]` is the
 * slot's section, or -1 for a slot whose section is gone (marked deleted in the graph). It is
 * saved beside the graph in `<graph>.labels`, little-endian int32 per slot.
 */
export const HNSW_LABELS_SUFFIX = '.labels';

export class HnswVectorIndex implements VectorIndex {
  readonly size: number;
  private freed = false;

  private constructor(
    /** The graph itself: the indexer updates it in place (hnsw-update.ts). */
    readonly graph: hnswlib.HierarchicalNSW,
    readonly sectionOf: Int32Array,
  ) {
    this.size = sectionOf.reduce((live, section) => (section >= 0 ? live + 1 : live), 0);
  }

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
    return new HnswVectorIndex(
      index,
      Int32Array.from({ length: n }, (_, row) => row),
    );
  }

  /** A graph whose slots `sectionOf` maps (the indexer's updated graph). */
  static fromGraph(graph: hnswlib.HierarchicalNSW, sectionOf: Int32Array): HnswVectorIndex {
    return new HnswVectorIndex(graph, sectionOf);
  }

  static async load(path: string, dims: number, expectedSize: number, params: HnswParams): Promise<HnswVectorIndex> {
    const index = new hnswlib.HierarchicalNSW('cosine', dims);
    await index.readIndex(path);
    const bytes = await readFile(path + HNSW_LABELS_SUFFIX);
    const slots = index.getCurrentCount();
    if (bytes.byteLength !== slots * 4)
      throw new Error(`${path}${HNSW_LABELS_SUFFIX} maps ${bytes.byteLength / 4} slots but the graph has ${slots}`);
    const sectionOf = new Int32Array(slots);
    new Uint8Array(sectionOf.buffer).set(bytes);
    const problem = slotProblem(index.getIdsList(), sectionOf, expectedSize);
    if (problem !== undefined) throw new Error(`${path}: ${problem}`);
    index.setEf(params.efSearch);
    return new HnswVectorIndex(index, sectionOf);
  }

  /** Sets how many candidates a search keeps (a benchmark's sweep; the server uses the manifest's). */
  setEfSearch(ef: number): void {
    this.graph.setEf(ef);
  }

  /** The section number of each live slot (what a search returns as ids). */
  labels(): number[] {
    return [...this.sectionOf].filter((section) => section >= 0);
  }

  /** Writes the graph and its slot map (`<path>.labels`). */
  async save(path: string): Promise<void> {
    await this.graph.writeIndex(path);
    await writeFile(path + HNSW_LABELS_SUFFIX, new Uint8Array(this.sectionOf.buffer, 0, this.sectionOf.byteLength));
  }

  /**
   * Frees the graph's native memory now. V8 frees it only when it collects this object, and it
   * does not see native memory, so a server that reloads its index often would hold every old
   * graph until a collection it has no reason to run. The graph cannot be searched afterwards.
   */
  free(): void {
    // hnswlib-node deletes its index when initIndex makes a new one; a one-element graph is a few bytes.
    if (!this.freed) this.graph.initIndex({ maxElements: 1, m: 2, efConstruction: 2 });
    this.freed = true;
  }

  search(query: Float32Array, k: number): VectorHits {
    if (this.freed) throw new Error('this HNSW graph was freed: its index was replaced or closed');
    const n = Math.min(k, this.size);
    if (n === 0) return { ids: [], scores: [] };
    const { neighbors, distances } = this.graph.searchKnn(Array.from(query), n);
    const hits: VectorHits = { ids: [], scores: [] };
    neighbors.forEach((label, i) => {
      // Deleted slots are never returned by hnswlib; a slot the map calls empty is skipped all the same.
      const section = this.sectionOf[label] ?? -1;
      if (section < 0) return;
      hits.ids.push(section);
      hits.scores.push(1 - distances[i]!);
    });
    return hits;
  }
}

/** Why the graph's labels and the slot map disagree: labels 0 … slots - 1 each once, every section in one live slot. */
function slotProblem(labels: number[], sectionOf: Int32Array, sections: number): string | undefined {
  const slots = sectionOf.length;
  const seen = new Uint8Array(slots);
  for (const label of labels) {
    if (!Number.isInteger(label) || label < 0 || label >= slots || seen[label])
      return `it holds label ${label} twice or outside its ${slots} slots`;
    seen[label] = 1;
  }
  if (labels.length !== slots) return `it holds ${labels.length} labels for ${slots} slots`;
  const placed = new Uint8Array(sections);
  let live = 0;
  for (const section of sectionOf) {
    if (section < -1 || section >= sections || (section >= 0 && placed[section]))
      return `its slot map names section ${section} of ${sections} twice or out of range`;
    if (section >= 0) {
      placed[section] = 1;
      live++;
    }
  }
  return live === sections ? undefined : `it holds ${live} vectors but the manifest says ${sections}`;
}
