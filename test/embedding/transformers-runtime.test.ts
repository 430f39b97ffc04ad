import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { buildTinyBert } from './tiny-bert.js';
import { scratchDir } from './tiny-model.js';

/**
 * Transformers.js is an optional dependency (the Docker image leaves it out): a model that needs
 * it, loaded where it is not installed, fails with one error saying how to get it. The model is
 * real; only the package's resolution is hidden, by a module hook in a child process.
 */

const HIDE = join(projectRoot(), 'test', 'embedding', 'hide-transformers.mjs');

/** loadEmbedder on `dir` through Transformers.js in a child process: 'loaded', or the error's name, code and message. */
function loadInChild(dir: string, preload: string[]): string {
  const script = `import('./src/embedding/embedder.ts')
    .then((m) => m.loadEmbedder({ model: ${JSON.stringify(dir)} }))
    .then(() => console.log('loaded'), (e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })));`;
  const run = spawnSync(process.execPath, [...preload, '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return run.stdout.trim();
}

describe('a model that needs Transformers.js', () => {
  const dir = buildTinyBert(join(scratchDir('runtime'), 'tiny-bert'));

  it('loads where Transformers.js is installed', () => {
    expect(loadInChild(dir, [])).toBe('loaded');
  });

  it('fails with one error naming the package and how to get it where it is not', () => {
    expect(JSON.parse(loadInChild(dir, ['--import', HIDE]))).toEqual({
      name: 'ModelRuntimeMissingError',
      code: 'MODEL_RUNTIME_MISSING',
      message: `the model "${dir}" runs in Transformers.js (@huggingface/transformers), an optional dependency this installation leaves out: install it (npm install @huggingface/transformers), or in Docker use the image built with --target models`,
    });
  });
});
