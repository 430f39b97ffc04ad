import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { SvcDocsError } from '../errors.js';
import { defaultCacheDir } from '../settings/defaults.js';
import { DEFAULT_MODEL_ID, ensureDefaultModel } from './default-model.js';
import { cachedDigest } from './digest-cache.js';
import { finiteUnit, loadLookupEmbedder, type TableRowsMode, tokenLimit } from './lookup-embedder.js';
import { importTransformers } from './transformers-runtime.js';
import type { Embedder } from './types.js';

interface LoadEmbedderOptions {
  /** Unset or 'default': the bundled default model. A folder path: that model. Otherwise a Hub id. */
  model?: string;
  /** Let Transformers.js download a Hub model (into <cache>/hf). Off by default: nothing is fetched. */
  allowRemote?: boolean;
  /** The cache folder: the default model is built in its `models`, Hub models go to its `hf`. */
  cacheDir?: string;
  /** Texts per forward pass. */
  batchSize?: number;
  log?: (line: string) => void;
  /**
   * The default model's table: 'memory' (default) for embedding many texts, 'file' to read its
   * rows from the model file on demand (a server, which embeds queries only).
   */
  tableRows?: TableRowsMode;
}

const DEFAULT_BATCH_SIZE = 32;

/** A model that cannot be found or loaded: the message names it and what to do. */
class ModelError extends SvcDocsError<'model_unavailable'> {
  override name = 'ModelError';

  constructor(message: string) {
    super('model_unavailable', message);
  }
}

/** The files Transformers.js needs in a model folder for feature extraction with dtype fp32. */
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];

/** Where the model comes from; `dir` is its folder (for a Hub model, where Transformers.js caches it). */
interface ModelSource {
  kind: 'default' | 'folder' | 'hub';
  modelId: string;
  dir: string;
}

/**
 * Loads the default static model (its table, read directly: lookup-embedder.ts) or any
 * Transformers.js model (a model folder, or, when allowed, a Hub id) behind the same `Embedder`:
 * for the latter the real feature-extraction pipeline, mean pooling, L2 normalisation, fp32 weights.
 */
export async function loadEmbedder(options: LoadEmbedderOptions = {}): Promise<Embedder> {
  const log = options.log ?? (() => {});
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const started = Date.now();
  const source = await resolveSource(options, log);
  if (source.kind !== 'hub') {
    const lookup = loadLookup(source, options.tableRows);
    if (lookup !== undefined) {
      log(
        `loaded model ${source.modelId} (${lookup.dimensions} dimensions, a static lookup model: no inference runtime needed) in ${Date.now() - started} ms`,
      );
      return lookup;
    }
    const missing = REQUIRED_FILES.filter((file) => !existsSync(join(source.dir, file)));
    if (missing.length > 0) throw new ModelError(loadError(source, `${missing.join(', ')} missing`));
  }
  const embedder = await loadPipelineEmbedder(source, batchSize, options.cacheDir ?? defaultCacheDir());
  log(
    `loaded model ${source.modelId} (${embedder.dimensions} dimensions, ${embedder.maxTokens === undefined ? 'no token limit' : `${embedder.maxTokens} tokens per text`}) in ${Date.now() - started} ms`,
  );
  return embedder;
}

/**
 * The checksum `loadEmbedder(options)` would give its model, without loading it (the digest is
 * remembered by the files' stat signatures): a process that keeps an embedder between builds
 * checks with it that the model on disk is still the one it holds.
 */
export async function modelChecksum(options: LoadEmbedderOptions = {}): Promise<string> {
  const source = await resolveSource(options, options.log ?? (() => {}));
  return folderChecksum(source.dir);
}

/** A static model's folder (the default model's format), embedded without Transformers.js; undefined for other models. */
function loadLookup(source: ModelSource, tableRows: TableRowsMode | undefined): Embedder | undefined {
  try {
    return loadLookupEmbedder(source.dir, source.modelId, folderChecksum(source.dir), tableRows);
  } catch (error) {
    throw new ModelError(loadError(source, brokenJson(source) ?? reason(error)));
  }
}

/**
 * Any other model runs in Transformers.js's feature-extraction pipeline (ONNX Runtime). It is
 * imported here, on first use, so a server on the static model never loads it (nor needs it
 * installed: transformers-runtime.ts).
 */
async function loadPipelineEmbedder(
  source: ModelSource,
  batchSize: number,
  cacheDir: string,
): Promise<PipelineEmbedder> {
  const { env, pipeline } = await importTransformers(source.modelId);
  const hfCache = join(cacheDir, 'hf');
  // Global Transformers.js settings: local files only unless this load is a permitted download,
  // and downloads go to the project's cache, not into node_modules.
  env.allowLocalModels = true;
  env.allowRemoteModels = source.kind === 'hub';
  env.localModelPath = hfCache;
  env.cacheDir = hfCache;
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await pipeline('feature-extraction', source.kind === 'hub' ? source.modelId : source.dir, {
      dtype: 'fp32',
      device: 'cpu',
      local_files_only: source.kind !== 'hub',
    });
  } catch (error) {
    throw new ModelError(loadError(source, brokenJson(source) ?? reason(error)));
  }
  try {
    const maxTokens = limitTokens(extractor);
    const embedder = new PipelineEmbedder(extractor, source.modelId, folderChecksum(source.dir), batchSize, maxTokens);
    await embedder.probe();
    return embedder;
  } catch (error) {
    await extractor.dispose();
    throw new ModelError(loadError(source, reason(error)));
  }
}

async function resolveSource(options: LoadEmbedderOptions, log: (line: string) => void): Promise<ModelSource> {
  const model = options.model?.trim();
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  if (model === undefined || model === '' || model === 'default' || model === DEFAULT_MODEL_ID) {
    return { kind: 'default', modelId: DEFAULT_MODEL_ID, dir: await ensureDefaultModel({ cacheDir, log }) };
  }
  const dir = resolve(model);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory())
      throw new ModelError(
        `model "${model}" is a file, not a model folder: pass the folder that holds config.json and onnx/model.onnx`,
      );
    return { kind: 'folder', modelId: model, dir };
  }
  if (/^[.~/\\]|[\\/]$/.test(model) || model.split('/').length > 2) {
    throw new ModelError(
      `model folder "${model}" does not exist (resolved to ${dir}): pass an existing model folder, 'default', or a Hugging Face model id`,
    );
  }
  if (!options.allowRemote) {
    throw new ModelError(
      `model "${model}" is not a local folder and remote models are disabled; pass a model folder, or set SVC_DOCS_ALLOW_REMOTE_MODELS=1 to let Transformers.js download it`,
    );
  }
  return { kind: 'hub', modelId: model, dir: join(cacheDir, 'hf', model) };
}

function loadError(source: ModelSource, why: string): string {
  switch (source.kind) {
    case 'default':
      return `the default model in ${source.dir} cannot be loaded (${why}): delete ${source.dir} and run 'svc-docs index' to rebuild it`;
    case 'folder':
      return `the model folder ${source.dir} cannot be loaded (${why}): it must be a Transformers.js model folder with ${REQUIRED_FILES.join(', ')}; export or download it again`;
    case 'hub':
      return `the model "${source.modelId}" cannot be loaded (${why}): check the model id and the network access (files already downloaded are in ${source.dir}; delete it to download them again)`;
  }
}

/**
 * Transformers.js reports a JSON syntax error without the file name; after a failed load, find
 * the file ourselves (parsing up front would slow down every successful load).
 */
function brokenJson(source: ModelSource): string | undefined {
  if (source.kind === 'hub') return undefined;
  for (const file of REQUIRED_FILES.filter((f) => f.endsWith('.json'))) {
    try {
      JSON.parse(readFileSync(join(source.dir, file), 'utf8'));
    } catch (error) {
      return `${file} is not valid JSON: ${reason(error)}`;
    }
  }
  return undefined;
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
  return firstLine.length > 300 ? `${firstLine.slice(0, 300)}…` : firstLine;
}

/**
 * The pipeline truncates to the tokenizer's model_max_length. When a tokenizer claims no limit,
 * fall back to the model's position count so long texts are cut instead of failing in the model.
 */
function limitTokens(extractor: FeatureExtractionPipeline): number | undefined {
  const tokenizer = extractor.tokenizer;
  const limit = tokenLimit(tokenizer.model_max_length, extractor.model.config);
  // Transformers.js reads the limit from here on every call and offers no setter.
  if (limit !== tokenizer.model_max_length && limit !== undefined)
    (tokenizer._tokenizerConfig as Record<string, unknown>).model_max_length = limit;
  return limit;
}

/**
 * sha256 over the files that decide the vectors, sorted by relative path (path, then content).
 * Other ONNX variants in onnx/ (quantised, fp16) are skipped: this embedder never loads them,
 * and hashing them would cost seconds. Hidden files and partial downloads are skipped too.
 */
export function folderChecksum(dir: string): string {
  const files = modelFiles(dir);
  return cachedDigest(dir, 'folder', files, () => {
    const hash = createHash('sha256');
    for (const path of files) {
      hash
        .update(path)
        .update('\0')
        .update(readFileSync(join(dir, path)))
        .update('\0');
    }
    return hash.digest('hex');
  });
}

function modelFiles(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.name.startsWith('.') || entry.name.includes('.tmp.')) continue;
    if (entry.isDirectory()) files.push(...modelFiles(dir, path));
    else if (entry.isFile() && (!path.startsWith('onnx/') || /^onnx\/model\.onnx(_data(_\d+)?)?$/.test(path)))
      files.push(path);
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

class PipelineEmbedder implements Embedder {
  dimensions = 0;

  constructor(
    private readonly extractor: FeatureExtractionPipeline,
    readonly modelId: string,
    readonly checksum: string,
    private readonly batchSize: number,
    readonly maxTokens: number | undefined,
  ) {}

  /** One forward pass at load time: gives the vector length and fails early on a broken model. */
  async probe(): Promise<void> {
    const [vector] = await this.run(['svc-docs']);
    this.dimensions = vector!.length;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    // Longest first, so each batch pads its texts to similar lengths; results go back in input order.
    const order = texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
    const vectors: Float32Array[] = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const batch = order.slice(start, start + this.batchSize);
      const output = await this.run(batch.map((i) => texts[i]!));
      batch.forEach((textIndex, row) => {
        vectors[textIndex] = output[row]!;
      });
    }
    return vectors;
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    const output = await this.extractor(texts, { pooling: 'mean', normalize: true });
    const [rows, dims] = output.dims;
    if (rows !== texts.length || dims === undefined || !(output.data instanceof Float32Array)) {
      throw new Error(
        `the model returned a ${output.type} tensor of shape [${output.dims.join(', ')}] for ${texts.length} texts; expected float32 [${texts.length}, dimensions]`,
      );
    }
    const data = output.data;
    return texts.map((_, row) => finiteUnit(data.slice(row * dims, (row + 1) * dims)));
  }

  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }
}
