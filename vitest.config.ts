import { availableParallelism } from 'node:os';
import { defaultExclude, defineConfig } from 'vitest/config';

/** The test files of `npm test`: every test of the repository and of the platform package. */
export const ALL_TESTS = ['test/**/*.test.ts', 'packages/platform/test/**/*.test.ts'];
/**
 * The full tier (`npm run test:full`, which CI runs after `npm test`): the slow real-world checks,
 * chosen by name, `*.full.test.ts`. They take minutes, not seconds: the busy-machine build, the
 * scans of every shared corpus, the long session-memory run. Everything else runs in `npm test`.
 */
export const FULL_TESTS = ['test/**/*.full.test.ts', 'packages/platform/test/**/*.full.test.ts'];

export default defineConfig({
  test: {
    include: ALL_TESTS,
    exclude: [...defaultExclude, ...FULL_TESTS],
    // The real model and real indexes are built once per run, not per file.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where the files
    // then ran one after another though most of their time is spent waiting on servers, child
    // processes and sockets. At least two; bigger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
