import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { record } from '../record.js';
import { type CompiledLookup, readCompiledLookup, writeCompiledLookup } from './lookup-cache.js';
import { fileRows, memoryRows, readTableAt, type TableRows } from './lookup-table.js';
import { STATIC_MODEL_TYPE, VECTORS_FILE } from './static-model-settings.js';
import type { Embedder } from './types.js';
import { UnigramTokenizer } from './unigram-tokenizer.js';

/** Tokenizers without a real limit say so with a huge model_max_length (Hugging Face uses 1e30). */
const NO_TOKEN_LIMIT = 1_000_000;

/**
 * Where a static model's table rows live: 'memory' holds the whole table (fast for embedding a
 * corpus); 'file' reads each row from the model file when a text needs it (a server that embeds
 * only queries keeps 60 MB less, at one small read per token).
 */
export type TableRowsMode = 'memory' | 'file';

/**
 * The default model (static-model-builder.ts: a vector table, a word list, the Unigram split)
 * embedded as Transformers.js's feature-extraction pipeline would embed the same table: token ids
 * from `UnigramTokenizer`, rows from the table, then Transformers.js's own arithmetic for mean
 * pooling and L2 normalisation (test/embedding/default-vectors.test.ts pins the vectors). Loads
 * from its compiled form (lookup-cache.ts) when that matches `checksum`, else from the model's
 * files (and compiles it for next time); undefined for a folder that is neither VECTORS_FILE nor
 * says it is such a model in config.json: a Transformers.js model.
 */
export function loadLookupEmbedder(
  dir: string,
  modelId: string,
  checksum: string,
  mode: TableRowsMode = 'memory',
): Embedder | undefined {
  const vectorsPath = join(dir, VECTORS_FILE);
  if (!existsSync(vectorsPath) && record(readJsonIfThere(join(dir, 'config.json')))?.model_type !== STATIC_MODEL_TYPE)
    return undefined;
  const cached = readCompiledLookup(dir, checksum);
  const compiled = cached ?? compile(dir, vectorsPath);
  if (cached === undefined) writeCompiledLookup(dir, checksum, compiled);
  const at = compiled.table;
  const rows =
    mode === 'file' ? fileRows(vectorsPath, at) : memoryRows(readTableAt(vectorsPath, at), at.rows, at.dimensions);
  return new LookupEmbedder(UnigramTokenizer.fromParts(compiled.tokenizer), rows, modelId, checksum);
}

/** The model's own files parsed: the tokenizer's parts, and the table's shape from config.json. */
function compile(dir: string, vectorsPath: string): CompiledLookup {
  const config = record(readJson(join(dir, 'config.json')));
  const tokenizerConfig = readJson(join(dir, 'tokenizer_config.json'));
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'));
  const maxTokens = tokenLimit(record(tokenizerConfig)?.model_max_length, config) ?? Number.POSITIVE_INFINITY;
  const tokenizer = UnigramTokenizer.fromJson(tokenizerJson, tokenizerConfig, maxTokens);
  if (tokenizer === undefined) throw new Error('tokenizer.json is not the Unigram tokenizer the builder writes');
  const rows = config?.vocab_size;
  const dimensions = config?.hidden_size;
  if (config?.model_type !== STATIC_MODEL_TYPE || !isCount(rows) || !isCount(dimensions))
    throw new Error(
      `config.json does not give the table's shape (model_type ${STATIC_MODEL_TYPE}, vocab_size, hidden_size)`,
    );
  if (!existsSync(vectorsPath)) throw new Error(`${VECTORS_FILE} missing`);
  if (statSync(vectorsPath).size !== rows * dimensions * 4)
    throw new Error(`${VECTORS_FILE} does not hold ${rows} × ${dimensions} float32 values`);
  return { tokenizer: tokenizer.parts, table: { offset: 0, rows, dimensions } };
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/**
 * Tokens per text, as Transformers.js truncates: the tokenizer's model_max_length, or when that
 * claims no limit, the model's position count (embedder.ts sets it so); undefined when neither.
 */
export function tokenLimit(modelMaxLength: unknown, config: unknown): number | undefined {
  if (typeof modelMaxLength === 'number' && modelMaxLength > 0 && modelMaxLength < NO_TOKEN_LIMIT)
    return modelMaxLength;
  const positions = record(config)?.max_position_embeddings;
  return typeof positions === 'number' ? positions : undefined;
}

class LookupEmbedder implements Embedder {
  readonly dimensions: number;

  constructor(
    private readonly tokenizer: UnigramTokenizer,
    private readonly table: TableRows,
    readonly modelId: string,
    readonly checksum: string,
  ) {
    this.dimensions = table.dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  /**
   * Transformers.js `mean_pooling` (a double sum over the tokens, divided by their count, stored
   * as float32), then `Tensor.normalize` (the squared norm summed into a float32, its `** 0.5`
   * as float32, each value divided by it into float32).
   */
  private embedOne(text: string): Float32Array {
    const ids = this.tokenizer.encode(text);
    const dims = this.dimensions;
    const sums = new Float64Array(dims);
    for (const id of ids) {
      if (id < 0 || id >= this.table.rows)
        throw new Error(`token id ${id} is outside the model's ${this.table.rows} rows`);
      this.table.addRow(id, sums);
    }
    const vector = new Float32Array(dims);
    for (let k = 0; k < dims; k++) vector[k] = sums[k]! / ids.length;
    let squared = 0;
    for (let k = 0; k < dims; k++) squared = Math.fround(squared + vector[k]! ** 2);
    const norm = Math.fround(squared ** 0.5);
    for (let k = 0; k < dims; k++) vector[k] = vector[k]! / norm;
    return finiteUnit(vector);
  }

  async dispose(): Promise<void> {
    this.table.close();
  }
}

/**
 * A zero pooled vector (nothing but zero rows) normalises to NaN; the callers need a unit vector,
 * so such a text gets the same fixed direction every time, equally far from every topic.
 */
export function finiteUnit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (Number.isFinite(norm) && norm > 0) return vector;
  return vector.fill(1 / Math.sqrt(vector.length));
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function readJsonIfThere(path: string): unknown {
  try {
    return readJson(path);
  } catch {
    return undefined;
  }
}
