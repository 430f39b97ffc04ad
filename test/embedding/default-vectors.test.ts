import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';

/**
 * The default model's vectors for fixed texts, bit for bit: every built index and the labelled
 * queries' answers depend on them. The digests were computed before the model stopped being
 * packaged as an ONNX graph (when Transformers.js's pipeline and the lookup embedder gave the same
 * vectors, as lookup-embedder.test.ts then checked), so a change to the folder format, the
 * tokenizer or the pooling arithmetic that moves any value fails here.
 */

const TEXTS: [string, string][] = [
  ['How do I roll back an Argo CD application to an earlier sync?', 'd0736f7212df882a619a494d6062c5ea'],
  ['useState hook', '928541df6937bd5d31f4a86a616bf797'],
  ['Ownership and borrowing in Rust: references must always be valid', '589f71c7ee39014adb3c039cefcc6e57'],
  // No token with a vector: the fixed direction (lookup-embedder.ts finiteUnit).
  ['', 'aade5b7ab37687af615696c6218a216b'],
  ['[CLS]foo[SEP]bar [UNK] [PAD]', '52dbb6d1c2c7f96eb1be018f6bb1cdd4'],
  ['Ünïcödé café naïve 中文字符 😀 xyzzyqqqplugh', '6ca0e775bd47843980b79b93c447e0c3'],
  // Past model_max_length (2048 tokens): the tail ('webhook') is cut.
  [
    `${Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? 'sync' : 'wave')).join(' ')} webhook`,
    '58824f462f378c0335603ac35977fd15',
  ],
];

const digest = (v: Float32Array) =>
  createHash('sha256')
    .update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
    .digest('hex')
    .slice(0, 32);

describe.each(['memory', 'file'] as const)('the default model with its table in %s', (tableRows) => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await loadEmbedder({ tableRows });
  }, 300_000);
  afterAll(() => embedder?.dispose());

  it('gives the vectors it gave before, bit for bit', async () => {
    expect(embedder.dimensions).toBe(100);
    const vectors = await embedder.embed(TEXTS.map(([text]) => text));
    expect(vectors.map(digest)).toEqual(TEXTS.map(([, sum]) => sum));
  });
});
