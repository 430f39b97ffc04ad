import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The platform package's tests run here too, so `npm test` at the root covers it.
    include: ['test/**/*.test.ts', 'packages/platform/test/**/*.test.ts'],
    // The real model and real indexes are built once per run, not per file.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
