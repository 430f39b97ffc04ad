import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultModelDir } from '../../src/embedding/default-model.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { loadLookupEmbedder } from '../../src/embedding/lookup-embedder.js';
import { UnigramTokenizer } from '../../src/embedding/unigram-tokenizer.js';
import { projectRoot } from '../../src/project-root.js';
import { paragraphs, referenceTokenizer, tokenizerFiles, useDefaultModelDir } from './lookup-reference.js';
import { buildTinyBert } from './tiny-bert.js';
import { scratchDir } from './tiny-model.js';

/**
 * The static default model is embedded without Transformers.js (src/embedding/lookup-embedder.ts):
 * its token ids must be those of @huggingface/tokenizers for the same tokenizer.json (its vectors
 * are pinned in default-vectors.test.ts). Checked on real documentation (the bundled corpus; every
 * shared corpus beside the checkout in lookup-embedder-corpora.full.test.ts, `npm run test:full`)
 * and on random text full of the tokenizer's edge cases.
 */

const BUNDLED = join(projectRoot(), 'corpus');

/** Text the tokenizer treats specially: special-token strings, unknown characters, accents, CJK, controls. */
const EDGE_CASES = [
  '',
  '   ',
  '[CLS]foo[SEP]bar [UNK] [PAD]',
  'initializes a session; a 2 step release; a bcrypt hash',
  '☃☃☃ ☃ x ☃y',
  'Ünïcödé ÀÉÎ café naïve ﬁle ǆ',
  '中文字符 测试 日本語',
  '😀😀 emoji🎉test',
  `${'a'.repeat(41)} ${'b9'.repeat(30)} c`,
  'x\u0000y\u200bz\ufffd\t\r\n',
];

/** Any Unicode code points, and plain ASCII. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
);
const pieces = fc.constantFrom(
  ...['[CLS]', '[SEP]', '[UNK]', '[PAD]', 'a', 's', ' ', '☃', 'é', '中', '😀', 'entity', 'events', '.', '`', '\u0301'],
);
const mixedText = fc.array(fc.oneof(pieces, fc.string({ maxLength: 6 }), anyText), { maxLength: 12 });

describe('the static model without Transformers.js', () => {
  const both = useDefaultModelDir();

  it('is what loadEmbedder gives for the default model', async () => {
    const embedder = await loadEmbedder();
    try {
      expect(both.dir).toBe(defaultModelDir());
      expect(embedder.constructor.name).toBe('LookupEmbedder');
      expect(embedder.dimensions).toBe(100);
    } finally {
      await embedder.dispose();
    }
  });

  it('gives the token ids of @huggingface/tokenizers on real docs and random text', () => {
    const reference = referenceTokenizer(both.dir);
    const ours = UnigramTokenizer.fromJson(...tokenizerFiles(both.dir), 2048)!;
    const same = (text: string): void => {
      expect(ours.encode(text), text.slice(0, 80)).toEqual(reference.encode(text).ids.slice(0, 2048));
    };
    for (const text of [...EDGE_CASES, ...paragraphs(BUNDLED)]) same(text);
    fc.assert(
      fc.property(mixedText, (parts) => same(parts.join(''))),
      { numRuns: 2000, seed: 20261123 },
    );
  }, 300_000);

  it('gives a text the same ids however many words came before it (the split cache)', () => {
    const [json, config] = tokenizerFiles(both.dir);
    const text = 'Rollbacks of an ApplicationSet: sync waves, hooks and prune=false';
    const fresh = () => UnigramTokenizer.fromJson(json, config, 2048)!;
    const expected = fresh().encode(text);
    const used = fresh();
    expect(used.encode(text)).toEqual(expected);
    // More distinct words than the cache holds, some sharing the text's words, so it fills and is emptied.
    for (let i = 0; i < 6000; i++) used.encode(`sync${i} wave${i % 97} hooks`);
    expect(used.encode(text)).toEqual(expected);
    expect(used.encode(`${text} ${text}`)).toEqual(fresh().encode(`${text} ${text}`));
  });

  it('tokenizes word by word as the whole text: unknown runs across words', () => {
    const reference = referenceTokenizer(both.dir);
    const ours = UnigramTokenizer.fromJson(...tokenizerFiles(both.dir), 2048)!;
    const same = (text: string): void => {
      expect(ours.encode(text), text.slice(0, 80)).toEqual(reference.encode(text).ids.slice(0, 2048));
    };
    // fuse_unk joins unknown pieces of neighbouring words: each word alone is not the answer.
    for (const text of ['☃ ☃\t☃\n☃', 's\u0301 ☃ a ☃', 'Σ ΑΣ ΑΣ.Β x\u00a0☃ y', '☃'.repeat(3)]) {
      same(text);
      same(text);
    }
  });

  it('leaves any other model to Transformers.js', async () => {
    const bert = buildTinyBert(scratchDir('lookup-bert'));
    expect(loadLookupEmbedder(bert, bert, 'checksum')).toBeUndefined();
    const embedder = await loadEmbedder({ model: bert });
    try {
      expect(embedder.constructor.name).toBe('PipelineEmbedder');
    } finally {
      await embedder.dispose();
    }
  });
});
