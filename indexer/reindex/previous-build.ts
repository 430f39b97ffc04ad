import { isDeepStrictEqual } from 'node:util';
import type { StoredDocument, StoredSection } from '../../src/index/format.js';
import type { LexicalData } from '../../src/index/lexical-data.js';
import { currentBuildDir, readBuildLexical, readBuildSections, readBuildVectors } from '../../src/index/read-index.js';
import type { HnswParams, HnswVectorIndex, VectorMatrix } from '../../src/index/vector-index.js';
import { CHUNKER_VERSION, type ChunkOptions } from '../chunk/chunk.js';
import type { PreviousBuild as ChunkedBuild } from '../parse/chunk-corpus.js';
import { previousGraph } from './hnsw-update.js';
import { carriedSections } from '../write/section-tokens.js';

/** The live build a reindex starts from: its sections, and what of its postings and graph this build can carry over. */

/** The live build, with the folder it is in. */
export type PreviousBuild = ChunkedBuild & { buildDir: string };

export async function previousBuild(outDir: string): Promise<PreviousBuild | undefined> {
  try {
    const dir = await currentBuildDir(outDir);
    return dir === undefined ? undefined : { buildDir: dir, ...(await readBuildSections(dir)) };
  } catch {
    // No usable previous index: everything counts as added, and every file is parsed.
    return undefined;
  }
}

/** The previous build's postings, graph and vectors: read while the changed files are parsed; each undefined when unusable. */
export interface PreviousData {
  lexical: LexicalData | undefined;
  graph: HnswVectorIndex | undefined;
  vectors: Float32Array | undefined;
}

/** Whether `previous` chunked as this build does: else its sections say nothing about this build's. */
export function chunkedAlike(previous: PreviousBuild, chunkOptions: ChunkOptions): boolean {
  const { chunking } = previous.manifest;
  return chunking.maxSectionChars === chunkOptions.maxSectionChars && chunking.version === CHUNKER_VERSION;
}

/** Undefined when the previous build chunked differently: its sections say nothing about this build's. Never rejects. */
export async function readPreviousData(
  previous: PreviousBuild | undefined,
  chunkOptions: ChunkOptions,
): Promise<PreviousData | undefined> {
  if (!previous || !chunkedAlike(previous, chunkOptions)) return undefined;
  const [lexical, graph, vectors] = await Promise.all([
    readBuildLexical(previous.buildDir, previous.manifest).catch(() => undefined),
    previousGraph(previous.buildDir, previous.manifest),
    previousVectors(previous),
  ]);
  return { lexical, graph, vectors };
}

/** What this build takes from the previous one: `oldOf[s]` is section s's number there (or -1), with what of its data fits this build. */
export interface Carried extends PreviousData {
  oldOf: Int32Array;
}

export function carriedFrom(
  previous: PreviousBuild | undefined,
  data: PreviousData | undefined,
  documents: readonly StoredDocument[],
  sections: readonly StoredSection[],
  model: { checksum: string; dimensions: number },
  hnswParams: HnswParams,
): Carried | undefined {
  if (!previous || !data) return undefined;
  // Vectors (and the graph of them) of another model say nothing about this one's.
  const sameModel =
    previous.manifest.model.checksum === model.checksum && previous.manifest.model.dimensions === model.dimensions;
  return {
    oldOf: carriedSections(documents, sections, previous),
    lexical: data.lexical,
    graph: sameModel && isDeepStrictEqual(previous.manifest.hnsw, hnswParams) ? data.graph : undefined,
    vectors: sameModel ? data.vectors : undefined,
  };
}

async function previousVectors(previous: PreviousBuild): Promise<Float32Array | undefined> {
  const matrix = await readBuildVectors(previous.buildDir, previous.manifest).catch(() => undefined);
  return matrix?.data;
}

/**
 * Every section's vector: a carried section's from the previous build, the others from `embed`
 * (given their section numbers; through the cache). Hashing every section's text for the cache
 * cost a one-file reindex more than embedding what changed.
 */
export async function carriedVectors(
  carried: Carried | undefined,
  sections: number,
  dims: number,
  embed: (sections: number[]) => Promise<{ matrix: VectorMatrix; embedded: number }>,
): Promise<{ matrix: VectorMatrix; embedded: number }> {
  const previous = carried?.vectors;
  const all = Array.from({ length: sections }, (_, s) => s);
  if (!previous) return embed(all);
  const wanted = all.filter((s) => carried.oldOf[s]! < 0);
  const fresh = await embed(wanted);
  const data = new Float32Array(sections * dims);
  carried.oldOf.forEach((old, s) => {
    if (old >= 0) data.set(previous.subarray(old * dims, (old + 1) * dims), s * dims);
  });
  wanted.forEach((s, i) => data.set(fresh.matrix.data.subarray(i * dims, (i + 1) * dims), s * dims));
  return { matrix: { dims, data }, embedded: fresh.embedded };
}

export function diffDocuments(
  before: StoredDocument[],
  after: StoredDocument[],
): { added: string[]; changed: string[]; removed: string[] } {
  const key = (d: StoredDocument) => `${d.kb}/${d.path}`;
  const old = new Map(before.map((d) => [key(d), d.hash]));
  const now = new Map(after.map((d) => [key(d), d.hash]));
  return {
    added: [...now.keys()].filter((k) => !old.has(k)),
    changed: [...now].filter(([k, h]) => old.has(k) && old.get(k) !== h).map(([k]) => k),
    removed: [...old.keys()].filter((k) => !now.has(k)),
  };
}
