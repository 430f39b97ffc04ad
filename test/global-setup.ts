import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIndex } from '../indexer/build.js';
import { defaultCacheDir, defaultCorpusDir } from '../src/settings/defaults.js';
import { defaultModelDir, ensureDefaultModel } from '../src/embedding/default-model.js';
import { projectRoot } from '../src/project-root.js';
import { changedUserRecords, snapshotUserRecords } from './helpers/user-records.js';
import { writeFiles } from './helpers/index-fixture.js';
import { SAMPLE_CORPUS } from './helpers/sample-corpus.js';

/**
 * Once per test run: build the real default model (a no-op when it exists) and the real indexes
 * of the bundled corpus and of the sample corpus (test/helpers/sample-corpus.ts), which tests
 * share read-only instead of each building its own.
 *
 * The tests' commands get a cache folder of their own (SVC_DOCS_CACHE_DIR, which the test
 * helpers pass on to every svc-docs they spawn), holding the checkout's model by a link: an
 * index a test builds or serves, the searches it records and the docs it serves last never land
 * in the checkout's .cache, whose records the user's `svc-docs report` reads. The run fails at
 * the end if any of those changed anyway.
 *
 * The CLI the tests spawn is transpiled once, as `npm start` runs it (scripts/transpile.mjs): a
 * process started through tsx spent 1-2 s more (load 11) compiling its modules before it did
 * anything, and the reliability and CLI tests start a hundred of them.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  await ensureDefaultModel({ log: (line: string) => console.log(`[global-setup] ${line}`) });
  const userCache = process.env.SVC_DOCS_CACHE_DIR ?? defaultCacheDir();
  const userRecords = snapshotUserRecords(userCache);
  const root = mkdtempSync(join(tmpdir(), 'svc-docs-test-'));
  const testCache = join(root, 'cache');
  mkdirSync(testCache);
  symlinkSync(dirname(defaultModelDir()), join(testCache, 'models'));
  process.env.SVC_DOCS_CACHE_DIR = testCache;
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
  // Inside the package, so the transpiled files resolve node_modules and the project root as dist/ does.
  mkdirSync(join(projectRoot(), '.cache'), { recursive: true });
  const transpiled = mkdtempSync(join(projectRoot(), '.cache', 'test-cli-'));
  execFileSync(process.execPath, ['scripts/transpile.mjs', transpiled], { cwd: projectRoot(), stdio: 'inherit' });
  project.provide('transpiledCli', join(transpiled, 'src', 'cli.js'));
  project.provide('bundledIndexDir', bundledIndexDir);
  project.provide('sampleIndexDir', sampleIndexDir);
  project.provide('testTempRoot', root);
  project.provide('testCacheDir', testCache);
  return () => {
    rmSync(root, { recursive: true, force: true });
    rmSync(transpiled, { recursive: true, force: true });
    const changed = changedUserRecords(userCache, userRecords);
    if (changed.length === 0) return;
    // Vitest logs an error thrown here but still exits 0: the exit code is set by hand.
    console.error(`npm test changed the user's records in ${userCache}: ${changed.join(', ')}`);
    process.exitCode = 1;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundledIndexDir: string;
    sampleIndexDir: string;
    testTempRoot: string;
    /** SVC_DOCS_CACHE_DIR for every svc-docs a test runs: its own, never the checkout's. */
    testCacheDir: string;
    /** The CLI's entry (`cli.js`), transpiled for this run: what spawned CLIs run (test/helpers/cli.ts). */
    transpiledCli: string;
  }
}
