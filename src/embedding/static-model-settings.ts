import type { Provenance } from './model-folder.js';

/** What the default model's builder takes and records: shared by the builder and by the check that a built folder is current. */

/** Bump when the builder's output changes; a folder from another version is rebuilt. */
export const BUILDER_VERSION = 4;

/**
 * The default model's vector table: row i (float32, little-endian, row-major) is token id i's
 * vector. Version 4 stores it as is; earlier versions packaged it as an ONNX graph.
 */
export const VECTORS_FILE = 'table.f32';
/** config.json's model_type for such a folder: its hidden_size and vocab_size give the table's shape. */
export const STATIC_MODEL_TYPE = 'svc-docs-static-lookup';

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
