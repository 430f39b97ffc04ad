import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { buildIndex, type BuildOptions } from '../../indexer/build.js';

/** Real indexes for tests: built by the real indexer with the real default model. */

/** The bundled corpus's index, built once per run by test/global-setup.ts. Read-only. */
export function bundledIndex(): string {
  return inject('bundledIndexDir');
}

/**
 * The sample corpus's index (SAMPLE_CORPUS), built once per run by test/global-setup.ts, for tests
 * that open it with openEngine. Read-only: a test that changes it, or serves it through
 * `svc-docs serve` (which records searches in the index folder), builds its own with fixtureIndex.
 */
export function sampleIndex(): string {
  return inject('sampleIndexDir');
}

/** A fresh temporary folder under the run's temp root (removed after the run). */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(inject('testTempRoot'), `${prefix}-`));
}

/** Writes `files` ({ 'kb/doc.md': '# Title …' }) into `dir`, making the folders they need. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** Writes `files` ({ 'kb/doc.md': '# Title …' }) into a new corpus folder and returns it. */
export function writeCorpus(files: Record<string, string>): string {
  const corpus = tempDir('corpus');
  writeFiles(corpus, files);
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
