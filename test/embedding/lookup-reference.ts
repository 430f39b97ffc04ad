import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tokenizers from '@huggingface/tokenizers';
import { beforeAll } from 'vitest';
import { ensureDefaultModel } from '../../src/embedding/default-model.js';

/** What the lookup embedder's tokenizer is compared with: @huggingface/tokenizers, and real docs to feed both. */

/** Paragraphs of every Markdown file under `dir`: the kinds of text the indexer embeds. */
export function paragraphs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/\n{2,}/))
    .filter((p) => p.trim() !== '');
}

/** The model folder's tokenizer.json and tokenizer_config.json, parsed. */
export function tokenizerFiles(modelDir: string): [object, object] {
  const read = (name: string) => JSON.parse(readFileSync(join(modelDir, name), 'utf8')) as object;
  return [read('tokenizer.json'), read('tokenizer_config.json')];
}

interface Reference {
  encode(text: string): { ids: number[] };
}

/** @huggingface/tokenizers' tokenizer of the model folder: the reference for its token ids. */
export function referenceTokenizer(modelDir: string): Reference {
  const Tokenizer = (tokenizers as unknown as { Tokenizer: new (json: object, config: object) => Reference }).Tokenizer;
  return new Tokenizer(...tokenizerFiles(modelDir));
}

/** The default model's folder, filled in beforeAll, for one test file. */
export function useDefaultModelDir(): { dir: string } {
  const model = { dir: '' };
  beforeAll(async () => {
    model.dir = await ensureDefaultModel();
  }, 300_000);
  return model;
}
