import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnigramTokenizer } from '../../src/embedding/unigram-tokenizer.js';
import { projectRoot } from '../../src/project-root.js';
import { paragraphs, referenceTokenizer, tokenizerFiles, useDefaultModelDir } from './lookup-reference.js';

/**
 * lookup-embedder.test.ts's checks on every shared corpus beside the checkout (some 1,900 pages,
 * read in place; a minute or more of tokenizing, hence the full tier): the lookup embedder's
 * token ids are @huggingface/tokenizers' on all of them. A checkout without ../shared skips these; CI has it.
 */

const SHARED = join(projectRoot(), '..', 'shared', 'corpora');
const CORPORA = ['argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo'];
if (process.env.CI === 'true' && !existsSync(SHARED))
  throw new Error(`${SHARED} is missing: CI clones ../shared beside the checkout, and these tests need it`);

describe.skipIf(!existsSync(SHARED))('the static model without Transformers.js, on every shared corpus', () => {
  const both = useDefaultModelDir();

  it.each(CORPORA)('gives the token ids of @huggingface/tokenizers on %s', { timeout: 300_000 }, (corpus) => {
    const reference = referenceTokenizer(both.dir);
    const ours = UnigramTokenizer.fromJson(...tokenizerFiles(both.dir), 2048)!;
    const texts = paragraphs(join(SHARED, corpus));
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts)
      expect(ours.encode(text), text.slice(0, 80)).toEqual(reference.encode(text).ids.slice(0, 2048));
  });
});
