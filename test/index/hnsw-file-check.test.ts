import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import hnswlib from 'hnswlib-node';
import { describe, expect, it } from 'vitest';
import { hnswFileProblem } from '../../src/index/hnsw-file-check.js';
import { HnswVectorIndex } from '../../src/index/vector-index.js';
import { tempDir } from '../helpers/index-fixture.js';

/** The saved graph's structure walked from its bytes, against what hnswlib itself saves and loads. */

const DIMS = 8;

/** A graph of `n` random unit vectors saved by hnswlib: its bytes. Enough elements that some have upper levels. */
async function savedGraph(n: number): Promise<Buffer> {
  const data = new Float32Array(n * DIMS);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    data[i] = seed / 2 ** 31 - 0.5;
  }
  const path = join(tempDir('hnsw'), 'vectors.hnsw');
  await HnswVectorIndex.build({ dims: DIMS, data }).save(path);
  return readFileSync(path);
}

/** Whether hnswlib loads the bytes (its own check, and the read that follows it). */
async function hnswlibLoads(bytes: Uint8Array): Promise<boolean> {
  const path = join(tempDir('hnsw-load'), 'g.hnsw');
  writeFileSync(path, bytes);
  const index = new hnswlib.HierarchicalNSW('cosine', DIMS);
  return index.readIndex(path).then(
    () => true,
    () => false,
  );
}

describe('checking a saved HNSW graph file', () => {
  it('passes a whole file that has upper-level link lists', async () => {
    const bytes = await savedGraph(300);
    expect(hnswFileProblem(bytes, DIMS, 300)).toBeUndefined();
    // Some element has links above level 0 (a non-zero size after the level-0 records), so the walk covers them.
    const perElement = Number(bytes.readBigUInt64LE(24));
    expect(bytes.byteLength).toBeGreaterThan(96 + 300 * perElement + 300 * 4);
    expect(await hnswlibLoads(bytes)).toBe(true);
  });

  it('refuses the file cut short at every length, as hnswlib does where its load notices', async () => {
    const bytes = await savedGraph(120);
    for (let length = 0; length < bytes.byteLength; length++)
      expect(hnswFileProblem(bytes.subarray(0, length), DIMS, 120), `cut at ${length}`).toBeDefined();
    // Spot checks that hnswlib agrees these cuts are damage.
    for (const length of [50, 96 + 10 * 180, bytes.byteLength - 1])
      expect(await hnswlibLoads(bytes.subarray(0, length))).toBe(false);
  });

  it('refuses bytes after the structure, and a file of another size or shape', async () => {
    const bytes = await savedGraph(40);
    expect(hnswFileProblem(Buffer.concat([bytes, Buffer.alloc(4)]), DIMS, 40)).toMatch(
      /bytes where its structure takes/,
    );
    expect(hnswFileProblem(bytes, DIMS, 41)).toMatch(/holds 40 elements where 41 were saved/);
    expect(hnswFileProblem(bytes, DIMS + 1, 40)).toMatch(/its elements are \d+ bytes where \d+ are expected/);
  });

  it('reads the header wherever the bytes sit in their buffer', async () => {
    const bytes = await savedGraph(30);
    const shifted = Buffer.alloc(bytes.byteLength + 3);
    bytes.copy(shifted, 3);
    expect(hnswFileProblem(shifted.subarray(3), DIMS, 30)).toBeUndefined();
  });
});
