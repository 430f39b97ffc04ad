import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { searchesGraph } from '../../src/search/search-policy.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/**
 * With the static model a hybrid search takes no sections from the vector graph: its candidates
 * are the lexical matches, each with its cosine (SearchPolicy.graphCandidates).
 */

let outDir: string;
let shipped: LoadedEngine;
let withGraph: LoadedEngine;

beforeAll(async () => {
  outDir = tempDir('index');
  await buildIndex({ corpusDirs: [writeCorpus({ ...SAMPLE_CORPUS })], outDir, vectorCacheDir: tempDir('cache') });
  shipped = await openEngine(outDir);
  withGraph = await openEngine(outDir, { embedder: shipped.embedder }, { graphCandidates: true });
});
afterAll(async () => {
  await withGraph?.close();
  await shipped?.close();
});

describe('graph candidates (real index, real model)', () => {
  it('returns only pages that match the query lexically, where the graph would add its neighbours', async () => {
    const query = 'entityEventSequence';
    const lexical = await openEngine(outDir, { embedder: shipped.embedder }, { retrieval: 'lexical' });
    const matching = await lexical.search(query);
    await lexical.close();
    const results = await shipped.search(query);
    expect(results.map((r) => r.path).sort()).toEqual(matching.map((r) => r.path).sort());
    const neighbours = await withGraph.search(query);
    expect(neighbours.length).toBeGreaterThan(results.length);
    expect(neighbours[0]!.path).toBe(results[0]!.path);
  });

  it('still searches the graph for vector-only retrieval', async () => {
    const engine = await openEngine(outDir, { embedder: shipped.embedder }, { retrieval: 'vector' });
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
    expect(searchesGraph({ ...fusion, vectorOnlyResults: true }, {})).toBe(true);
    expect(searchesGraph({ ...fusion, vectorOnlyResults: true }, { graphCandidates: false })).toBe(false);
  });
});
