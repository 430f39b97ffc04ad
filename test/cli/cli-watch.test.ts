import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { connectClient } from '../helpers/mcp-client.js';
import { alive, buildWriter } from '../helpers/processes.js';
import { corpusKey, parseCorpusSpec } from '../../src/corpus-spec.js';
import { testRemote } from '../helpers/git-repo.js';
import { logEntries } from '../helpers/serve-log.js';
import { afterAll } from 'vitest';
import { cliEnv, killChildren, searchPaths, startServe, waitFor } from '../helpers/cli.js';

afterAll(killChildren);

/** `svc-docs serve --watch`: reindexing while serving, folders and git corpora. */

describe('svc-docs serve --watch', () => {
  it('reindexes in a child process while searches keep being answered, and serves the change: no request fails', async () => {
    const corpus = writeCorpus({
      'handbook/deploy.md': '# Deploy\n\n## Rollback\n\nRun the flamingo rollback to redeploy the previous tag.\n',
    });
    const index = tempDir('watch-index');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('watch-vectors'), SVC_DOCS_SEARCH_THREADS: '0' });
    const server = await startServe(['--port', '0', '--watch', '--corpus', corpus, '--index', index], env);
    const { client, transport, close } = await connectClient(server.url);
    let answered = 0;
    const failures: string[] = [];
    let searching = true;
    const load = (async () => {
      while (searching) {
        try {
          const result = (await client.callTool({
            name: 'SearchDocs',
            arguments: { searchTerm: 'flamingo rollback' },
          })) as CallToolResult;
          if (result.isError) failures.push(JSON.stringify(result.content));
          else answered++;
        } catch (error) {
          failures.push(String(error));
        }
      }
    })();
    try {
      writeFileSync(
        join(corpus, 'handbook', 'oncall.md'),
        '# On call\n\n## Pager\n\nThe pelican pager wakes whoever is on call.\n',
      );
      // The reindex runs as `svc-docs index` in a child: its summary line reaches the server's log.
      await waitFor(
        () => /changes since the previous index: 1 added/.test(server.stdout()),
        120_000,
        () => server.stdout(),
      );
      expect(logEntries(server.stdout()).find((e) => e.event === 'watching')).toMatchObject({ dirs: [corpus] });
      const answeredBeforeReload = answered;
      await waitFor(
        async () => (await searchPaths(server.url, 'pelican pager'))[0] === 'handbook/oncall.md',
        60_000,
        () => server.stdout(),
      );
      searching = false;
      await load;
      expect(failures).toEqual([]);
      expect(answeredBeforeReload).toBeGreaterThan(0);
      // Builds are named with their writer's pid: the one now served was written by another process.
      const writer = buildWriter(index);
      expect(writer).toBeGreaterThan(0);
      expect(writer).not.toBe(server.pid);

      // Edits the page to name a new bird, and waits until a search for that bird finds it.
      const editServed = async (bird: string) => {
        writeFileSync(join(corpus, 'handbook', 'oncall.md'), `# On call\n\n## Pager\n\nThe ${bird} pager.\n`);
        await waitFor(
          async () => (await searchPaths(server.url, bird))[0] === 'handbook/oncall.md',
          60_000,
          () => server.stdout(),
        );
      };
      // The next edit is built by the same reindexer, kept between edits.
      await editServed('heron');
      expect(buildWriter(index)).toBe(writer);

      // A reindexer that dies is replaced at the next edit.
      process.kill(writer, 'SIGKILL');
      await editServed('ibis');
      const replacement = buildWriter(index);
      expect(replacement).not.toBe(writer);
      expect(replacement).not.toBe(server.pid);
      await transport.terminateSession();
      // Stopping the server lets its reindexer go.
      await server.stop();
      expect(alive(replacement)).toBe(false);
    } finally {
      searching = false;
      await load;
      await close();
      await server.stop();
    }
  }, 300_000);
});

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
