import { defaultExclude, defineConfig } from 'vitest/config';
import tests, { FULL_TESTS } from './vitest.config.js';

/**
 * The full tier (`npm run test:full`): the files named `*.full.test.ts`, the slow real-world
 * checks `npm test` leaves out (see FULL_TESTS). CI runs it after `npm test`; with the same
 * global setup, timeouts and pool.
 */
export default defineConfig({
  test: {
    ...tests.test,
    include: FULL_TESTS,
    exclude: defaultExclude,
  },
});
