import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultModelDir } from '../../src/embedding/default-model.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { loadLookupEmbedder } from '../../src/embedding/lookup-embedder.js';
import { UnigramTokenizer } from '../../src/embedding/unigram-tokenizer.js';
import { projectRoot } from '../../src/project-root.js';
import { paragraphs, referenceTokenizer, tokenizerFiles, useBothEmbedders } from './lookup-reference.js';
import { buildTinyBert } from './tiny-bert.js';
import { scratchDir } from './tiny-model.js';

/**
 * The static default model is embedded without Transformers.js (src/embedding/lookup-embedder.ts).
 * Its vectors must be the pipeline's, bit for bit: the index may be built by one and searched by
 * the other. Checked on real documentation (the bundled corpus; every shared corpus beside the
 * checkout in lookup-embedder-corpora.full.test.ts, `npm run test:full`) and on random text full
 * of the tokenizer's edge cases.
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
  const both = useBothEmbedders();

  it('is what loadEmbedder gives for the default model, with the same id and checksum', () => {
    expect(both.dir).toBe(defaultModelDir());
    expect(both.lookup.constructor.name).toBe('LookupEmbedder');
    expect(both.pipeline.constructor.name).toBe('PipelineEmbedder');
    expect(both.lookup.modelId).toBe(both.pipeline.modelId);
    expect(both.lookup.checksum).toBe(both.pipeline.checksum);
    expect(both.lookup.dimensions).toBe(both.pipeline.dimensions);
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

  it('gives the pipeline vectors bit for bit', async () => {
    const texts = [...EDGE_CASES, ...paragraphs(BUNDLED)];
    const ours = await both.lookup.embed(texts);
    const theirs = await both.pipeline.embed(texts);
    const differing = texts.filter((_, i) => !ours[i]!.every((x, k) => Object.is(x, theirs[i]![k])));
    expect(differing).toEqual([]);
  }, 300_000);

  it('cuts long texts where the pipeline does (model_max_length tokens)', async () => {
    const long = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? 'sync' : 'wave')).join(' ');
    const [a] = await both.lookup.embed([`${long} webhook`]);
    const [b] = await both.pipeline.embed([`${long} webhook`]);
    expect([...a!]).toEqual([...b!]);
    const [shorter] = await both.lookup.embed([long]);
    expect([...a!]).toEqual([...shorter!]);
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
