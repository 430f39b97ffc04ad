import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import full from '../../vitest.config.js';
import fast from '../../vitest.fast.config.js';

/**
 * The fast tier is chosen by a rule, not a list: files named `*.unit.test.ts`, run with the full
 * run's timeouts and pool. A unit test uses none of what makes the full run slow.
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
    for (const key of ['testTimeout', 'hookTimeout', 'pool'] as const)
      expect(fast.test?.[key], key).toBe(full.test?.[key]);
    expect(fast.test?.include).toEqual(['test/**/*.unit.test.ts', 'packages/platform/test/**/*.unit.test.ts']);
    expect(fast.test?.globalSetup).toEqual([]);
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
