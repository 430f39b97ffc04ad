import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { INDEX_FILES, IndexError } from '../../src/index/format.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { openPooledEngine } from '../../src/search/pool-engine.js';
import { SearchPool } from '../../src/search/pool.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { searchesGraph } from '../../src/search/searcher-types.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/**
 * With the static model a hybrid search takes no sections from the vector graph: its candidates
 * are the lexical matches, each with its cosine (EngineOptions.graphCandidates).
 */

let outDir: string;
let shipped: LoadedEngine;
let withGraph: LoadedEngine;

beforeAll(async () => {
  outDir = tempDir('index');
  await buildIndex({ corpusDirs: [writeCorpus({ ...SAMPLE_CORPUS })], outDir, vectorCacheDir: tempDir('cache') });
  shipped = await openEngine(outDir);
  withGraph = await openEngine(outDir, { embedder: shipped.embedder, graphCandidates: true });
});
afterAll(async () => {
  await withGraph?.close();
  await shipped?.close();
});

describe('graph candidates (real index, real model)', () => {
  it('returns only pages that match the query lexically, where the graph would add its neighbours', async () => {
    const query = 'entityEventSequence';
    const lexical = await openEngine(outDir, { embedder: shipped.embedder, retrieval: 'lexical' });
    const matching = await lexical.search(query);
    await lexical.close();
    const results = await shipped.search(query);
    expect(results.map((r) => r.path).sort()).toEqual(matching.map((r) => r.path).sort());
    const neighbours = await withGraph.search(query);
    expect(neighbours.length).toBeGreaterThan(results.length);
    expect(neighbours[0]!.path).toBe(results[0]!.path);
  });

  it('still searches the graph for vector-only retrieval', async () => {
    const engine = await openEngine(outDir, { embedder: shipped.embedder, retrieval: 'vector' });
    try {
      expect((await engine.search('entityEventSequence')).length).toBeGreaterThan(1);
    } finally {
      await engine.close();
    }
  });

  it('has a search worker load the graph only where searches read it', () => {
    const fusion = shipped.index.manifest.fusion;
    expect(fusion.vectorOnlyResults).toBe(false);
    expect(searchesGraph(fusion, {})).toBe(false);
    expect(searchesGraph(fusion, { retrieval: 'lexical' })).toBe(false);
    expect(searchesGraph(fusion, { retrieval: 'vector' })).toBe(true);
    expect(searchesGraph(fusion, { graphCandidates: true })).toBe(true);
    expect(searchesGraph({ ...fusion, method: 'rrf' }, {})).toBe(true);
    expect(searchesGraph({ ...fusion, vectorOnlyResults: true }, {})).toBe(true);
    expect(searchesGraph({ ...fusion, vectorOnlyResults: true }, { graphCandidates: false })).toBe(false);
  });

  it('has a search pool read and check the graph only where searches read it', async () => {
    const damaged = tempDir('damaged-graph');
    cpSync(outDir, damaged, { recursive: true });
    const graph = join((await currentBuildDir(damaged))!, INDEX_FILES.hnsw);
    const bytes = readFileSync(graph);
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(graph, bytes);
    const pool = new SearchPool(1);
    try {
      await expect(
        openPooledEngine(pool, damaged, { embedder: shipped.embedder, graphCandidates: true }),
      ).rejects.toBeInstanceOf(IndexError);
      const engine = await openPooledEngine(pool, damaged, { embedder: shipped.embedder });
      expect((await engine.search('entityEventSequence')).map((r) => r.path)).toEqual(
        (await shipped.search('entityEventSequence')).map((r) => r.path),
      );
      await engine.close();
    } finally {
      await pool.close();
    }
  });
});
