import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { ModelMismatchError, openEngine } from '../../src/search/engine.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';
import { buildTinyBert, TINY_BERT_DIMENSIONS } from './tiny-bert.js';

/**
 * Swapping the model is configuration: a folder laid out like the Hub's BERT-family sentence
 * models (WordPiece tokenizer, token_type_ids input) loads through the same loader, indexes, and
 * gets the sentence-model fusion settings; the index then serves with that model and refuses
 * another.
 */

describe('a BERT-style model folder instead of the default model', () => {
  let dir: string;
  let embedder: Embedder;
  beforeAll(async () => {
    dir = buildTinyBert(join(tempDir('tiny-bert'), 'model'));
    embedder = await loadEmbedder({ model: dir });
  });
  afterAll(() => embedder?.dispose());

  it('loads with its WordPiece tokenizer and three-input graph, and embeds to unit vectors', async () => {
    expect(embedder.modelId).toBe(dir);
    expect(embedder.dimensions).toBe(TINY_BERT_DIMENSIONS);
    const [a, b, c] = await embedder.embed([
      'refunds of the gift card',
      'cluster pod sync',
      'refunds of the gift card',
    ]);
    for (const v of [a!, b!]) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(Array.from(a!)).not.toEqual(Array.from(b!));
  });

  it('indexes with it, records it with sentence-model fusion settings, and serves with it alone', async () => {
    const outDir = tempDir('tiny-bert-index');
    await buildIndex({
      corpusDirs: [writeCorpus({ ...SAMPLE_CORPUS })],
      outDir,
      model: dir,
      vectorCacheDir: tempDir('tiny-bert-vectors'),
    });
    const { manifest } = await readIndex(outDir);
    expect(manifest.model).toMatchObject({ id: dir, dimensions: TINY_BERT_DIMENSIONS, checksum: embedder.checksum });
    expect(manifest.fusion.vectorWeight).toBe(0.35);
    expect(manifest.fusion.vectorOnlyResults).toBe(true);

    // The engine loads the manifest's model by itself.
    const engine = await openEngine(outDir);
    try {
      expect(engine.embedder.modelId).toBe(dir);
      const [top] = await engine.search('entityEventSequence');
      expect(top!.path).toBe('webhooks.md');
    } finally {
      await engine.close();
    }
    await expect(openEngine(outDir, { model: 'default' })).rejects.toThrow(ModelMismatchError);
  });
});
