import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusKey, parseCorpusSpec } from '../../src/corpus-spec.js';
import { projectRoot } from '../../src/project-root.js';
import { cliEnv, killChildren, searchPaths, startServe, waitFor } from '../helpers/cli.js';
import { testRemote } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/index-fixture.js';

afterAll(killChildren);

/**
 * `svc-docs serve --watch` with a git corpus: polled, and a pushed change served. (A folder
 * corpus: cli-watch.test.ts; the two were one file of 25 s and more at load 4-5.)
 */

describe('svc-docs serve --watch with a git corpus', () => {
  it('fetches it before serving, polls its remote, and serves a pushed change', async () => {
    const remote = testRemote('pelican-docs');
    remote.push({ 'docs/deploy.md': '# Deploy\n\n## Rollback\n\nRun the flamingo rollback to redeploy.\n' });
    const corpus = `git+${remote.url}#main:docs`;
    // Cloned under the project's cache (its model is there); the clone's folder is its own and removed after.
    const clone = join(projectRoot(), '.cache', 'sources', corpusKey(parseCorpusSpec(corpus)));
    const env = cliEnv({
      SVC_DOCS_VECTOR_CACHE_DIR: tempDir('git-watch-vectors'),
      SVC_DOCS_SEARCH_THREADS: '0',
      SVC_DOCS_GIT_POLL_SECONDS: '1',
    });
    const index = tempDir('git-watch-index');
    const server = await startServe(['--port', '0', '--watch', '--corpus', corpus, '--index', index], env);
    try {
      expect(await searchPaths(server.url, 'flamingo rollback')).toEqual(['pelican-docs/deploy.md']);
      remote.push({ 'docs/oncall.md': '# On call\n\n## Pager\n\nThe pelican pager wakes whoever is on call.\n' });
      await waitFor(
        async () => (await searchPaths(server.url, 'pelican pager'))[0] === 'pelican-docs/oncall.md',
        120_000,
        () => server.stdout(),
      );
      expect(server.stdout()).toMatch(/pelican-docs\.git#main:docs: fetched commit [0-9a-f]{12}/);
    } finally {
      await server.stop();
      rmSync(clone, { recursive: true, force: true });
    }
  }, 300_000);
});
