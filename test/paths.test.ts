import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV } from '../src/config.js';
import { cacheDir } from '../src/config.js';
import { projectRoot } from '../src/project-root.js';

/** The cache folder is a setting like any other: SVC_DOCS_CACHE_DIR, parsed in config.ts, else <package>/.cache. */

describe('cacheDir', () => {
  it('is the variable when set, and the package .cache folder when unset or blank', () => {
    expect(cacheDir({ [ENV.cacheDir]: '/srv/cache' })).toBe('/srv/cache');
    expect(cacheDir({ [ENV.cacheDir]: ' /srv/cache ' })).toBe('/srv/cache');
    expect(cacheDir({})).toBe(join(projectRoot(), '.cache'));
    expect(cacheDir({ [ENV.cacheDir]: '  ' })).toBe(join(projectRoot(), '.cache'));
  });

  it('follows the process environment at the time of the call', () => {
    const original = process.env[ENV.cacheDir];
    try {
      process.env[ENV.cacheDir] = '/tmp/elsewhere';
      expect(cacheDir()).toBe('/tmp/elsewhere');
    } finally {
      if (original === undefined) delete process.env[ENV.cacheDir];
      else process.env[ENV.cacheDir] = original;
    }
  });
});
