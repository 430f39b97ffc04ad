import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CompiledLookup, readCompiledLookup, writeCompiledLookup } from './lookup-cache.js';
import { fileRows, memoryRows, readLookupTable, readTableAt, type TableRows } from './lookup-table.js';
import { LITTLE_ENDIAN_HOST } from './byte-order.js';
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
 * A static model (its ONNX graph is a table lookup) embedded without ONNX Runtime or
 * Transformers.js: token ids from `UnigramTokenizer`, rows from the table, then Transformers.js's
 * own arithmetic for mean pooling and L2 normalisation, so the vectors are bit for bit the ones
 * its feature-extraction pipeline returns. Loads from its compiled form (lookup-cache.ts) when
 * that matches `checksum`, else from the model's files (and compiles it for next time);
 * undefined for any folder that is not such a model.
 */
export function loadLookupEmbedder(
  dir: string,
  modelId: string,
  checksum: string,
  mode: TableRowsMode = 'memory',
): Embedder | undefined {
  const onnxPath = join(dir, 'onnx', 'model.onnx');
  if (!existsSync(onnxPath)) return undefined;
  const cached = LITTLE_ENDIAN_HOST ? readCompiledLookup(dir, checksum) : undefined;
  const loaded = cached === undefined ? compile(dir, onnxPath) : { compiled: cached, table: undefined };
  if (loaded === undefined) return undefined;
  const { compiled, table } = loaded;
  if (cached === undefined) writeCompiledLookup(dir, checksum, compiled);
  const at = compiled.table;
  const rows =
    mode === 'file' && LITTLE_ENDIAN_HOST
      ? fileRows(onnxPath, at)
      : memoryRows(table ?? readTableAt(onnxPath, at), at.rows, at.dimensions);
  return new LookupEmbedder(UnigramTokenizer.fromParts(compiled.tokenizer), rows, modelId, checksum);
}

/** The model's own files parsed: the tokenizer's parts, and the table with its place in the file. */
function compile(dir: string, onnxPath: string): { compiled: CompiledLookup; table: Float32Array } | undefined {
  const config = readJson(join(dir, 'config.json'));
  const tokenizerConfig = readJson(join(dir, 'tokenizer_config.json'));
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'));
  const maxTokens = tokenLimit(field(tokenizerConfig, 'model_max_length'), config) ?? Number.POSITIVE_INFINITY;
  const tokenizer = UnigramTokenizer.fromJson(tokenizerJson, tokenizerConfig, maxTokens);
  if (tokenizer === undefined) return undefined;
  const lookup = readLookupTable(onnxPath);
  if (lookup === undefined) return undefined;
  const { table, ...location } = lookup;
  return { compiled: { tokenizer: tokenizer.parts, table: location }, table };
}

/**
 * Tokens per text, as Transformers.js truncates: the tokenizer's model_max_length, or when that
 * claims no limit, the model's position count (embedder.ts sets it so); undefined when neither.
 */
export function tokenLimit(modelMaxLength: unknown, config: unknown): number | undefined {
  if (typeof modelMaxLength === 'number' && modelMaxLength > 0 && modelMaxLength < NO_TOKEN_LIMIT)
    return modelMaxLength;
  const positions = field(config, 'max_position_embeddings');
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

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
