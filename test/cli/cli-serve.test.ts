import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { logEntries } from '../helpers/serve-log.js';
import { afterAll } from 'vitest';
import { cliEnv, killChildren, searchPaths, startServe } from '../helpers/cli.js';

afterAll(killChildren);

/**
 * `svc-docs serve`: serving, building a missing or stale index. (One index per corpus and a changed
 * model: cli-serve-indexes.test.ts; npm start's build: transpile.test.ts.)
 */

describe('svc-docs serve', () => {
  it('serves SearchDocs over MCP at the URL it prints, and exits cleanly on SIGTERM', async () => {
    const server = await startServe(['--port', '0', '--no-build', '--index', bundledIndex()], cliEnv());
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/);
    // The entry to paste into an IDE, for this very URL.
    const ready = logEntries(server.stdout()).find((e) => e.event === 'ready');
    expect(ready?.clientConfig).toEqual({ mcpServers: { 'svc-docs': { url: server.url, type: 'http' } } });
    expect(await searchPaths(server.url, 'rate limits')).toContain('svc-platform/limits.md');

    const { code, signal, stdout, stderr } = await server.stop();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // One structured log on stdout, from start to stop; nothing on stderr.
    expect(stderr).toBe('');
    const events = logEntries(stdout).map((e) => e.event);
    expect(events.slice(0, 3)).toEqual(['start', 'listening', 'ready']);
    expect(events.slice(-2)).toEqual(['stopping', 'stopped']);
    expect(events).toContain('request');
  });

  it('builds a missing index before serving, rebuilds a stale one, and reuses a current one', async () => {
    const corpus = writeCorpus({
      'handbook/deploy.md': '# Deploy\n\n## Rollback\n\nRun the flamingo rollback to redeploy the previous tag.\n',
    });
    const index = tempDir('serve-index');
    const args = ['--port', '0', '--corpus', corpus, '--index', index];
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('serve-vectors') });

    const first = await startServe(args, env);
    const building = (stdout: string) => logEntries(stdout).find((e) => e.event === 'index-build')?.message;
    expect(building(first.stdout())).toMatch(/no index in .*: building it from/);
    expect((await searchPaths(first.url, 'flamingo rollback'))[0]).toBe('handbook/deploy.md');
    await first.stop();

    writeFileSync(
      join(corpus, 'handbook', 'oncall.md'),
      '# On call\n\n## Pager\n\nThe pelican pager wakes whoever is on call.\n',
    );
    const second = await startServe(args, env);
    expect(building(second.stdout())).toMatch(/the corpus changed since the index was built: building it from/);
    expect((await searchPaths(second.url, 'pelican pager'))[0]).toBe('handbook/oncall.md');
    await second.stop();

    const third = await startServe(args, env);
    expect(building(third.stdout())).toBeUndefined();
    expect((await searchPaths(third.url, 'pelican pager'))[0]).toBe('handbook/oncall.md');
    await third.stop();
  });
});
