import type { StaticModelSettings, StaticModelSource } from './static-model-settings.js';
import { CLS, SEP, SPECIAL_TOKENS, specialId, UNK, type StaticVocab } from './vocab.js';

/** The static model's lookup table: SIF-weighted word vectors with the common component removed. */

/**
 * [CLS], [SEP] and [UNK] get this length along a fixed direction instead of zero, so a text of
 * only unknown words still pools to a finite unit vector; it is far below any word's length.
 */
const SPECIAL_ROW_NORM = 1e-6;

/**
 * The lookup table: each token's word vector scaled by its SIF weight, minus the common component.
 * Mean pooling is linear, so removing the component from every row removes it from every pooled
 * text vector, which is what SIF does to sentence vectors.
 */
export function sifTable(
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
      // The scatter matrix is symmetric: accumulate the upper triangle, mirror it below.
      for (let j = i; j < dims; j++) scatter[i * dims + j]! += pi * row[j]!;
    }
  }
  for (let i = 1; i < dims; i++) for (let j = 0; j < i; j++) scatter[i * dims + j] = scatter[j * dims + i]!;
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
