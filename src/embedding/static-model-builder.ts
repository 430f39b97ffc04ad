import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILDER_VERSION,
  DEFAULT_SETTINGS,
  STATIC_MODEL_TYPE,
  VECTORS_FILE,
  type StaticModelProvenance,
  type StaticModelSettings,
  type StaticModelSource,
} from './static-model-settings.js';
import { sifTable } from './sif-table.js';
import { buildVocab, SPECIAL_TOKENS, tokenizerConfigJson, tokenizerJson, zipfProbability } from './vocab.js';

/** Building the default model's folder from word vectors (wink-source.ts): only when it is missing or stale. */

/** How many of `words` (most frequent first) the vocabulary takes vectors from: the rest need not be read. */
export function wordsUsed(words: readonly string[], settings: StaticModelSettings = DEFAULT_SETTINGS): number {
  const { sourceIndex } = buildVocab(words, settings.maxWords);
  let last = -1;
  for (const index of sourceIndex) last = Math.max(last, index);
  return last + 1;
}

/**
 * Writes the default model's folder into `dir` (created if needed) and returns its provenance:
 * the vector table (VECTORS_FILE), the Unigram tokenizer's tokenizer.json and its config, and
 * config.json with the table's shape. The lookup embedder reads it directly (lookup-embedder.ts);
 * it is not a Transformers.js model folder. Deterministic: the same source and settings give
 * byte-identical files.
 */
export function buildStaticModel(
  source: StaticModelSource,
  dir: string,
  settings: StaticModelSettings = DEFAULT_SETTINGS,
): StaticModelProvenance {
  const vocab = buildVocab(source.words, settings.maxWords);
  const probability = zipfProbability(source.words.length);
  const table = sifTable(source, vocab, probability, settings);
  const scores = Array.from(vocab.sourceIndex, (src) =>
    src < 0 ? 0 : Math.log(probability(src)) - settings.splitPenalty,
  );
  const dims = source.dimensions;
  const files: Record<string, Uint8Array | string> = {
    // Little-endian as the host holds it: svc-docs runs on little-endian machines only (src/index/columns.ts).
    [VECTORS_FILE]: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
    'tokenizer.json': tokenizerJson(vocab.tokens, { scores, maxRunLength: settings.maxRunLength }),
    'tokenizer_config.json': tokenizerConfigJson(settings.maxTokens),
    'config.json': json({ model_type: STATIC_MODEL_TYPE, hidden_size: dims, vocab_size: vocab.tokens.length }),
  };
  mkdirSync(dir, { recursive: true });
  const checksums: Record<string, string> = {};
  for (const [path, content] of Object.entries(files)) {
    writeFileSync(join(dir, path), content);
    checksums[path] = createHash('sha256').update(content).digest('hex');
  }
  const provenance: StaticModelProvenance = {
    builderVersion: BUILDER_VERSION,
    source: { package: source.name, version: source.version, license: source.license, words: source.words.length },
    settings,
    dimensions: dims,
    vocabulary: { tokens: vocab.tokens.length, words: vocab.tokens.length - SPECIAL_TOKENS.length },
    sif: { a: settings.sifA, wordProbability: 'Zipf from frequency rank: p(r) = 1 / (r * H_N), N = source words' },
    files: checksums,
  };
  writeFileSync(join(dir, 'provenance.json'), json(provenance));
  return provenance;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
