import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIndex } from '../indexer/build.js';
import { defaultCorpusDir } from '../src/settings/defaults.js';
import { ensureDefaultModel } from '../src/embedding/default-model.js';
import { writeFiles } from './helpers/index-fixture.js';
import { SAMPLE_CORPUS } from './helpers/sample-corpus.js';

/**
 * Once per test run: build the real default model (a no-op when it exists) and the real indexes
 * of the bundled corpus and of the sample corpus (test/helpers/sample-corpus.ts), which tests
 * share read-only instead of each building its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  await ensureDefaultModel({ log: (line: string) => console.log(`[global-setup] ${line}`) });
  const root = mkdtempSync(join(tmpdir(), 'svc-docs-test-'));
  const bundledIndexDir = join(root, 'bundled-index');
  await buildIndex({
    corpusDirs: [defaultCorpusDir()],
    outDir: bundledIndexDir,
    vectorCacheDir: join(root, 'vectors'),
  });
  const sampleCorpusDir = join(root, 'sample-corpus');
  writeFiles(sampleCorpusDir, SAMPLE_CORPUS);
  const sampleIndexDir = join(root, 'sample-index');
  await buildIndex({ corpusDirs: [sampleCorpusDir], outDir: sampleIndexDir, vectorCacheDir: join(root, 'vectors') });
  project.provide('bundledIndexDir', bundledIndexDir);
  project.provide('sampleIndexDir', sampleIndexDir);
  project.provide('testTempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundledIndexDir: string;
    sampleIndexDir: string;
    testTempRoot: string;
  }
}
