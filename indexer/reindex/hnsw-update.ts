import type { Manifest } from '../../src/index/manifest.js';
import { readBuildGraph } from '../../src/index/read-index.js';
import { HnswVectorIndex, rowCount, type VectorMatrix } from '../../src/index/vector-index.js';

/**
 * A reindex updates the previous build's HNSW graph instead of building one: building it was a
 * quarter of a one-file reindex of the Argo CD corpus (0.5 s of 2 s). Sections that kept their
 * text keep their slot (renumbered in the slot map); a section that is gone has its slot marked
 * deleted; a new or changed section takes a free slot (hnswlib re-links a re-used slot's
 * neighbourhood as it would on insertion) or a new one. The graph is built afresh when too many
 * slots would stay empty, or when most of the corpus is new anyway.
 */

/** Empty (deleted) slots beyond this share of the graph make a reindex rebuild it: they cost memory and search hops. */
const MAX_EMPTY_SHARE = 0.1;
/** Above this share of new sections, a fresh graph costs little more than the updates. */
const MAX_NEW_SHARE = 0.5;

/** The previous build's graph, when its files are intact (a reindex checks that it fits its model and settings). */
export async function previousGraph(buildDir: string, manifest: Manifest): Promise<HnswVectorIndex | undefined> {
  // The graph is carried from build to build: damage it picked up on disk must not be carried with it.
  return readBuildGraph(buildDir, manifest).catch(() => undefined);
}

/**
 * `previous` (modified in place) moved to this build's sections: `oldOf[s]` is section s's number
 * in the previous build when its vector is unchanged, else -1 (its row of `vectors` is added).
 * Undefined when the graph should be built afresh instead.
 */
export function updateGraph(
  previous: HnswVectorIndex,
  oldOf: Int32Array,
  vectors: VectorMatrix,
): HnswVectorIndex | undefined {
  const sections = rowCount(vectors);
  const newOfOld = new Int32Array(previous.size).fill(-1);
  const fresh: number[] = [];
  oldOf.forEach((old, s) => {
    if (old >= 0) newOfOld[old] = s;
    else fresh.push(s);
  });
  const oldSlots = previous.sectionOf.length;
  const free: number[] = [];
  for (let slot = 0; slot < oldSlots; slot++) {
    const old = previous.sectionOf[slot]!;
    if (old < 0 || newOfOld[old]! < 0) free.push(slot);
  }
  const slots = oldSlots + Math.max(0, fresh.length - free.length);
  if (slots - sections > MAX_EMPTY_SHARE * slots || fresh.length > MAX_NEW_SHARE * sections) return undefined;

  const graph = previous.graph;
  const sectionOf = new Int32Array(slots).fill(-1);
  for (let slot = 0; slot < oldSlots; slot++) {
    const old = previous.sectionOf[slot]!;
    if (old < 0) continue;
    sectionOf[slot] = newOfOld[old]!;
    if (sectionOf[slot]! < 0) graph.markDelete(slot);
  }
  if (slots > graph.getMaxElements()) graph.resizeIndex(slots);
  // Low slots first, so the graph's empty slots are the last ones and the map stays compact to read.
  free.reverse();
  let next = oldSlots;
  for (const s of fresh) {
    const slot = free.pop() ?? next++;
    // On a deleted slot's label hnswlib un-deletes it and re-links its neighbourhood for the new vector.
    graph.addPoint(Array.from(vectors.data.subarray(s * vectors.dims, (s + 1) * vectors.dims)), slot);
    sectionOf[slot] = s;
  }
  return HnswVectorIndex.fromGraph(graph, sectionOf);
}
