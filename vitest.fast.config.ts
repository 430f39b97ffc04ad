import { defaultExclude, defineConfig } from 'vitest/config';
import full from './vitest.config.js';

/**
 * The fast tier (`npm run test:fast`): the tests named `*.unit.test.ts`, those that need no model,
 * no index build, no server process and no browser (pure functions, small modules, files read in
 * place, a local fake platform at most). Name a new test so when it needs none of those; without
 * the full run's global setup, one that asks for the shared index (`inject`) fails here.
 * `npm test` runs these and everything else, with the same timeouts and pool.
 */
export default defineConfig({
  test: {
    ...full.test,
    include: ['test/**/*.unit.test.ts', 'packages/platform/test/**/*.unit.test.ts'],
    exclude: defaultExclude,
    globalSetup: [],
  },
});
