import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { buildTinyModel, scratchDir, TINY_DIMENSIONS } from './tiny-model.js';

function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('buildStaticModel', () => {
  const root = scratchDir('static');

  it('writes byte-identical folders from the same input', async () => {
    const a = filesOf(buildTinyModel(join(root, 'a')));
    const b = filesOf(buildTinyModel(join(root, 'b')));
    expect([...a.keys()].sort()).toEqual([
      'config.json',
      'provenance.json',
      'table.f32',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    for (const [path, content] of a) expect(content.equals(b.get(path)!), path).toBe(true);
  });

  it('records the sha256 of every other file, the source and the settings in provenance.json', async () => {
    const dir = join(root, 'a');
    const provenance = JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8'));
    for (const [path, content] of filesOf(dir)) {
      if (path === 'provenance.json') continue;
      expect(provenance.files[path], path).toBe(createHash('sha256').update(content).digest('hex'));
    }
    expect(provenance.source).toMatchObject({ package: 'tiny-synthetic', version: '0.0.0' });
    expect(provenance.settings.sifA).toBe(1e-3);
    // Words with punctuation can never come out of the tokenizer, so they are not kept; café is kept as cafe.
    expect(provenance.vocabulary.words).toBe(36);
  });

  it('tokenizes joined and camelCase identifiers into vocabulary words', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained(join(root, 'a'), { local_files_only: true });
    expect(tokenizer.tokenize('entityEventSequence')).toEqual(['entity', 'event', 'sequence']);
    expect(tokenizer.tokenize('instanceid getUserById')).toEqual(['instance', 'id', 'get', 'user', 'by', 'id']);
    expect(tokenizer.tokenize('Café')).toEqual(['cafe']);
    // A known word stays whole even when its parts are words too.
    expect(tokenizer.tokenize('events')).toEqual(['events']);
  });
});

describe('a static model loaded through loadEmbedder', () => {
  const root = scratchDir('static-load');
  let dir: string;
  let embedder: Embedder;
  beforeAll(async () => {
    dir = buildTinyModel(join(root, 'model'));
    embedder = await loadEmbedder({ model: dir, batchSize: 3 });
  });
  afterAll(() => embedder?.dispose());

  it('reports the folder as its id, its dimensions and a stable checksum', async () => {
    expect(embedder.modelId).toBe(dir);
    expect(embedder.dimensions).toBe(TINY_DIMENSIONS);
    expect(embedder.checksum).toMatch(/^[0-9a-f]{64}$/);
    const again = await loadEmbedder({ model: relative(process.cwd(), dir) });
    expect(again.checksum).toBe(embedder.checksum);
    await again.dispose();
  });

  it('returns one unit vector per text, in order, the same for the same text', async () => {
    const texts = ['refund the gift card', 'kubernetes pod scheduling on a node', 'refund the gift card'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(TINY_DIMENSIONS);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
  });

  it('gives a finite unit vector for unknown words only, punctuation only, and empty text', async () => {
    const vectors = await embedder.embed(['zzqx vvwj', '!!! ??? ...', '', '🙂 中文']);
    for (const v of vectors) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('gives a finite unit vector even from a model whose rows are all zero', async () => {
    const zeroDir = buildTinyModel(join(root, 'zero'));
    const rows = JSON.parse(readFileSync(join(zeroDir, 'config.json'), 'utf8')).vocab_size as number;
    writeFileSync(join(zeroDir, 'table.f32'), new Uint8Array(rows * TINY_DIMENSIONS * 4));
    const zero = await loadEmbedder({ model: zeroDir });
    const [v] = await zero.embed(['refund the gift card']);
    expect(v!.every(Number.isFinite)).toBe(true);
    expect(norm(v!)).toBeCloseTo(1, 5);
    await zero.dispose();
  });

  it('gives the same vectors in batches as one by one, whatever the order of lengths', async () => {
    const texts = [
      'gift',
      'the customer gets a refund of the card balance',
      'pod',
      'verify the webhook signature for the event',
      '',
      'entityEventSequence instanceId',
    ];
    const batched = await embedder.embed(texts);
    const single = [];
    for (const text of texts) single.push(...(await embedder.embed([text])));
    expect(batched).toEqual(single);
    expect(await embedder.embed([])).toEqual([]);
  });

  it('embeds a text longer than the token limit by truncating it', async () => {
    const long = 'refund the gift card balance of the customer. '.repeat(200);
    const [v] = await embedder.embed([long]);
    expect(norm(v!)).toBeCloseTo(1, 5);
  });

  it('changes its checksum when a model file changes', async () => {
    const copyDir = buildTinyModel(join(root, 'changed'));
    const config = JSON.parse(readFileSync(join(copyDir, 'config.json'), 'utf8'));
    writeFileSync(join(copyDir, 'config.json'), JSON.stringify({ ...config, note: 'edited' }));
    const changed = await loadEmbedder({ model: copyDir });
    expect(changed.checksum).not.toBe(embedder.checksum);
    await changed.dispose();
  });
});
