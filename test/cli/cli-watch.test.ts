import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { connectClient } from '../helpers/mcp-client.js';
import { alive, buildWriter } from '../helpers/processes.js';
import { logEntries } from '../helpers/serve-log.js';
import { afterAll } from 'vitest';
import { cliEnv, killChildren, searchPaths, startServe, waitFor } from '../helpers/cli.js';

afterAll(killChildren);

/** `svc-docs serve --watch`: reindexing a folder while serving (a git corpus: cli-watch-git.test.ts). */

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
