import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { buildIndex, type BuildOptions } from '../../indexer/build.js';

/** Real indexes for tests: built by the real indexer with the real default model. */

/** The bundled corpus's index, built once per run by test/global-setup.ts. Read-only. */
export function bundledIndex(): string {
  return inject('bundledIndexDir');
}

/** A fresh temporary folder under the run's temp root (removed after the run). */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(inject('testTempRoot'), `${prefix}-`));
}

/** Writes `files` ({ 'kb/doc.md': '# Title …' }) into a new corpus folder and returns it. */
export function writeCorpus(files: Record<string, string>): string {
  const corpus = tempDir('corpus');
  for (const [path, text] of Object.entries(files)) {
    const full = join(corpus, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return corpus;
}

/** Builds an index of `files` into a new folder and returns the index folder. */
export async function fixtureIndex(
  files: Record<string, string>,
  options: Partial<BuildOptions> = {},
): Promise<string> {
  const outDir = tempDir('index');
  await buildIndex({
    corpusDirs: [writeCorpus(files)],
    outDir,
    vectorCacheDir: join(inject('testTempRoot'), 'vectors'),
    ...options,
  });
  return outDir;
}
