import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILDER_VERSION,
  DEFAULT_SETTINGS,
  type StaticModelProvenance,
  type StaticModelSettings,
  type StaticModelSource,
} from './static-model-settings.js';
import { lookupModelBytes } from './onnx-graph.js';
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
 * Writes a static-embedding Transformers.js model folder into `dir` (created if needed) and
 * returns its provenance. Deterministic: the same source and settings give byte-identical files.
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
    'onnx/model.onnx': lookupModelBytes({
      table,
      rows: vocab.tokens.length,
      dimensions: dims,
      producerVersion: String(BUILDER_VERSION),
      docString: `static word embeddings built by svc-docs: SIF-weighted ${source.name}@${source.version} vectors`,
    }),
    'tokenizer.json': tokenizerJson(vocab.tokens, { scores, maxRunLength: settings.maxRunLength }),
    'tokenizer_config.json': tokenizerConfigJson(settings.maxTokens),
    'config.json': json({
      // A BERT encoder to Transformers.js: it feeds input_ids and attention_mask and reads last_hidden_state.
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: dims,
      vocab_size: vocab.tokens.length,
      max_position_embeddings: settings.maxTokens,
      num_hidden_layers: 0,
      pad_token_id: 0,
      'transformers.js_config': { dtype: 'fp32' },
    }),
  };
  mkdirSync(join(dir, 'onnx'), { recursive: true });
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
