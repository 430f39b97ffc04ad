import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { env } from '@huggingface/transformers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID } from '../../src/embedding/default-model.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { buildTinyBert } from './tiny-bert.js';
import { buildModelWithBrokenTokenizer, buildTinyModel, scratchDir } from './tiny-model.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('loadEmbedder errors', () => {
  const root = scratchDir('errors');
  let good: string;
  let bert: string;
  beforeAll(async () => {
    good = buildTinyModel(join(root, 'good'));
    bert = buildTinyBert(join(root, 'bert'));
  });

  /** A copy of the tiny static model (or of the tiny Transformers.js model), damaged. */
  function damaged(name: string, damage: (dir: string) => void, from: 'static' | 'bert' = 'static'): string {
    const dir = join(root, name);
    cpSync(from === 'static' ? good : bert, dir, { recursive: true });
    damage(dir);
    return dir;
  }

  const folderError = (dir: string) =>
    new RegExp(
      `^the model folder ${escape(dir)} cannot be loaded \\(.+\\): it must be a Transformers\\.js model folder with config\\.json, tokenizer\\.json, tokenizer_config\\.json, onnx/model\\.onnx; export or download it again$`,
    );

  it('names the folder and the missing file', async () => {
    const dir = damaged('no-onnx', (d) => rmSync(join(d, 'onnx', 'model.onnx')), 'bert');
    await expect(loadEmbedder({ model: dir })).rejects.toThrow(
      `the model folder ${dir} cannot be loaded (onnx/model.onnx missing)`,
    );
  });

  it('reports a truncated model file as one clear error', async () => {
    const dir = damaged(
      'truncated-onnx',
      (d) => {
        const path = join(d, 'onnx', 'model.onnx');
        writeFileSync(path, readFileSync(path).subarray(0, 300));
      },
      'bert',
    );
    await expect(loadEmbedder({ model: dir })).rejects.toThrow(folderError(dir));
    const table = damaged('truncated-table', (d) => {
      const path = join(d, 'table.f32');
      writeFileSync(path, readFileSync(path).subarray(0, 300));
    });
    await expect(loadEmbedder({ model: table })).rejects.toThrow(folderError(table));
    await expect(loadEmbedder({ model: table })).rejects.toThrow('(table.f32 does not hold ');
  });

  it('reports a broken tokenizer.json as one clear error', async () => {
    const dir = damaged('bad-tokenizer', (d) =>
      writeFileSync(join(d, 'tokenizer.json'), '{"version": "1.0", "model": '),
    );
    await expect(loadEmbedder({ model: dir })).rejects.toThrow(folderError(dir));
    await expect(loadEmbedder({ model: dir })).rejects.toThrow(
      `the model folder ${dir} cannot be loaded (tokenizer.json is not valid JSON: `,
    );
  });

  it('rejects a folder path that does not exist, and a file given as a folder', async () => {
    await expect(loadEmbedder({ model: './no-such-model-folder/' })).rejects.toThrow(
      /^model folder "\.\/no-such-model-folder\/" does not exist/,
    );
    await expect(loadEmbedder({ model: join(good, 'config.json') })).rejects.toThrow(/is a file, not a model folder/);
    await expect(loadEmbedder({ model: good, batchSize: 0 })).rejects.toThrow(
      'batchSize must be a positive integer, got 0',
    );
  });

  describe('a Hub id without allowRemote', () => {
    const originalFetch = globalThis.fetch;
    const originalEnvFetch = env.fetch;
    afterEach(() => {
      globalThis.fetch = originalFetch;
      env.fetch = originalEnvFetch;
    });

    it('fails at once with the clear error and never touches the network', async () => {
      const calls: unknown[] = [];
      const refuse = (...args: unknown[]) => {
        calls.push(args);
        return Promise.reject(new Error('the network is off in this test'));
      };
      globalThis.fetch = refuse as typeof fetch;
      env.fetch = refuse;
      const started = performance.now();
      await expect(loadEmbedder({ model: 'Xenova/all-MiniLM-L6-v2' })).rejects.toThrow(
        'model "Xenova/all-MiniLM-L6-v2" is not a local folder and remote models are disabled; pass a model folder, or set SVC_DOCS_ALLOW_REMOTE_MODELS=1 to let Transformers.js download it',
      );
      await expect(loadEmbedder({ model: 'Xenova/bge-small-en-v1.5', allowRemote: false })).rejects.toThrow(
        /remote models are disabled/,
      );
      expect(performance.now() - started).toBeLessThan(1000);
      expect(calls).toEqual([]);
    });
  });

  describe('the default model', () => {
    it('says to delete the folder and re-index when a checksum-valid folder still fails to load', async () => {
      // A folder whose provenance.json vouches for a broken tokenizer.json: ensureDefaultModel
      // accepts it (nothing to rebuild), so the loader's own error is what the user sees.
      const cache = join(root, 'cache');
      const dir = join(cache, 'models', DEFAULT_MODEL_ID);
      buildModelWithBrokenTokenizer(dir);

      await expect(loadEmbedder({ cacheDir: cache })).rejects.toThrow(
        new RegExp(
          `^the default model in ${escape(dir)} cannot be loaded \\(.+\\): delete ${escape(dir)} and run 'svc-docs index' to rebuild it$`,
        ),
      );
    });
  });
});
