import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultIndexDir, defaultSearchThreads, ENV, resolveSettings, SettingsError } from '../src/config.js';
import { AUTH_TOKEN_FILE_ENV, parseServerOptions } from '../src/mcp/server-options.js';
import { projectRoot } from '../src/project-root.js';

/** The one configuration path: every variable is documented, parsed at the edge, and refused clearly. */

const readme = readFileSync(join(projectRoot(), 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## The model'));

describe('configuration', () => {
  it('has a README configuration row for every variable svc-docs reads', () => {
    const missing = [...Object.values(ENV), AUTH_TOKEN_FILE_ENV].filter(
      (name) => !new RegExp(`\`${name}[\`=]`).test(table),
    );
    expect(missing).toEqual([]);
  });

  it('documents the defaults the code applies', () => {
    const defaults = parseServerOptions({});
    expect(table).toContain(`\`SVC_DOCS_RESPONSE_BUDGET_CHARS\` | \`${defaults.responseBudgetChars}\``);
    expect(table).toContain(`\`SVC_DOCS_MAX_RESULTS\` | \`${defaults.maxResults}\``);
  });

  it('reads settings from the environment it is given, and refuses a bad number with the variable named', () => {
    const settings = resolveSettings({}, { [ENV.corpus]: '/a, /b', [ENV.debug]: '1', [ENV.searchThreads]: '0' });
    expect(settings).toMatchObject({ corpusDirs: ['/a', '/b'], corpusGiven: true, debug: true, searchThreads: 0 });
    expect(resolveSettings({}, {}).corpusGiven).toBe(false);
    expect(() => resolveSettings({}, { [ENV.maxFileBytes]: 'lots' })).toThrow(SettingsError);
    expect(() => resolveSettings({}, { [ENV.maxFileBytes]: 'lots' })).toThrow(
      /SVC_DOCS_MAX_FILE_BYTES must be a positive number/,
    );
  });

  it('leaves the main thread a core of its own for search workers by default, and never starts none', () => {
    expect([1, 2, 3, 8].map((cores) => defaultSearchThreads(cores))).toEqual([1, 1, 2, 7]);
    expect(resolveSettings({}, {}).searchThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(resolveSettings({}, { [ENV.searchThreads]: '3' }).searchThreads).toBe(3);
  });

  it('gives each corpus its own index folder under the cache, unless one is named', () => {
    const docs = defaultIndexDir(['/srv/docs'], '/cache');
    expect(docs).toMatch(/^\/cache\/indexes\/docs-[0-9a-f]{12}$/);
    // The same folders however they are written; other folders (or more of them) elsewhere.
    expect(defaultIndexDir(['/srv/./docs/'], '/cache')).toBe(docs);
    expect(defaultIndexDir(['/home/docs'], '/cache')).not.toBe(docs);
    expect(defaultIndexDir(['/srv/docs', '/srv/api'], '/cache')).toMatch(/\/indexes\/docs\+api-[0-9a-f]{12}$/);
    expect(defaultIndexDir(['/srv/my docs!'], '/cache')).toMatch(/\/indexes\/my_docs_-[0-9a-f]{12}$/);
    const env = { [ENV.cacheDir]: '/cache', [ENV.corpus]: '/srv/docs' };
    expect(resolveSettings({}, env)).toMatchObject({ indexDir: docs, indexIsDefault: true });
    expect(resolveSettings({ corpus: ['/home/docs'] }, env).indexDir).toBe(defaultIndexDir(['/home/docs'], '/cache'));
    expect(resolveSettings({}, { ...env, [ENV.index]: '/data/index' })).toMatchObject({
      indexDir: '/data/index',
      indexIsDefault: false,
    });
    expect(resolveSettings({ out: '/out' }, env).indexDir).toBe('/out');
  });
});
