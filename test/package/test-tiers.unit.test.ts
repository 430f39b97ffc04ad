import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import all, { ALL_TESTS, FULL_TESTS } from '../../vitest.config.js';
import fast from '../../vitest.fast.config.js';
import full from '../../vitest.full.config.js';

/**
 * The tiers are chosen by rules, not lists: the fast tier is the files named `*.unit.test.ts`, the
 * full tier (`npm run test:full`) those named `*.full.test.ts`, and `npm test` everything but the
 * full tier; all three with the same timeouts and pool. A unit test uses none of what makes the
 * other tiers slow.
 */

/** What a unit test must not use: the shared index, fixtures built by the indexer, the model, a server or a child process. */
const HEAVY =
  /\binject\(|helpers\/(index-fixture|mcp-client|served-engine)|\bloadEmbedder\b|\bbuildIndex\b|\bopenEngine\b|\bensureDefaultModel\b|node:child_process|\bstartHttpServer\b/;

/** Every test file of the repository and the platform package, repository-relative. */
function testFiles(): string[] {
  return ['test', join('packages', 'platform', 'test')].flatMap((dir) =>
    readdirSync(join(projectRoot(), dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(dir, file)),
  );
}

describe('the test tiers', () => {
  it('run the fast tier with the full run timeouts and pool, without its global setup', () => {
    for (const key of ['testTimeout', 'hookTimeout', 'teardownTimeout', 'pool'] as const)
      expect(fast.test?.[key], key).toBe(all.test?.[key]);
    expect(fast.test?.include).toEqual(['test/**/*.unit.test.ts', 'packages/platform/test/**/*.unit.test.ts']);
    expect(fast.test?.globalSetup).toEqual([]);
  });

  it('leave the *.full.test.ts files out of npm test and run only them, with its setup, in test:full', () => {
    expect(ALL_TESTS).toEqual(['test/**/*.test.ts', 'packages/platform/test/**/*.test.ts']);
    expect(FULL_TESTS).toEqual(ALL_TESTS.map((glob) => glob.replace('*.test.ts', '*.full.test.ts')));
    expect(all.test?.include).toEqual(ALL_TESTS);
    expect(all.test?.exclude).toEqual(expect.arrayContaining(FULL_TESTS));
    expect(full.test?.include).toEqual(FULL_TESTS);
    expect(full.test?.exclude).not.toEqual(expect.arrayContaining(FULL_TESTS));
    for (const key of ['testTimeout', 'hookTimeout', 'teardownTimeout', 'pool', 'globalSetup', 'maxWorkers'] as const)
      expect(full.test?.[key], key).toEqual(all.test?.[key]);
    const { scripts } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.test).toMatch(/ && vitest run$/);
    expect(scripts['test:full']).toMatch(/ && vitest run --config vitest\.full\.config\.ts$/);
    // CI runs the full tier right after npm test.
    const ci = readFileSync(join(projectRoot(), '.ci', 'run'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ci.slice(ci.indexOf('npm test'), ci.indexOf('npm test') + 2)).toEqual(['npm test', 'npm run test:full']);
  });

  it('name unit tests only where they use nothing heavy', () => {
    // This file names the heavy things; it uses none of them.
    const self = join('test', 'package', 'test-tiers.unit.test.ts');
    const units = testFiles().filter((file) => file.endsWith('.unit.test.ts') && file !== self);
    expect(units.length).toBeGreaterThan(40);
    const heavy = units.filter((file) => HEAVY.test(readFileSync(join(projectRoot(), file), 'utf8')));
    expect(heavy).toEqual([]);
  });
});
