import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { bundledIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { defaultCorpusDir, defaultIndexDir } from '../../src/settings/defaults.js';
import { logEntries } from '../helpers/serve-log.js';
import { afterAll } from 'vitest';
import { cliEnv, killChildren, run, searchPaths, startServe } from '../helpers/cli.js';

afterAll(killChildren);

/** `svc-docs serve`: serving, building a missing or stale index, one index per corpus. (npm start's build: transpile.test.ts.) */

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

describe('svc-docs: each corpus gets its own index folder', () => {
  it('a server of the default corpus keeps serving its docs while serve --corpus <other> builds and serves another', async () => {
    // The tests' cache folder, laid out as npm start's (never the checkout's: the user's records are there).
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('own-index-vectors') });
    const ownIndex = defaultIndexDir([defaultCorpusDir()], inject('testCacheDir'));
    const other = writeCorpus({ 'zoo/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const otherIndex = defaultIndexDir([other], inject('testCacheDir'));
    const first = await startServe(['--port', '0'], env);
    try {
      const served = readFileSync(join(ownIndex, 'CURRENT'), 'utf8');
      expect(await searchPaths(first.url, 'rate limits')).toContain('svc-platform/limits.md');
      const second = await startServe(['--port', '0', '--corpus', other], env);
      const building = logEntries(second.stdout()).find((e) => e.event === 'index-build');
      expect(building?.message).toMatch(/no index in .*: building it from/);
      expect((await searchPaths(second.url, 'quokka enclosure'))[0]).toBe('zoo/quokka.md');
      expect(existsSync(join(otherIndex, 'CURRENT'))).toBe(true);
      // The first server's index was not rebuilt, so it had nothing to reload.
      expect(readFileSync(join(ownIndex, 'CURRENT'), 'utf8')).toBe(served);
      expect(await searchPaths(first.url, 'rate limits')).toContain('svc-platform/limits.md');
      expect(await searchPaths(first.url, 'quokka enclosure')).not.toContain('zoo/quokka.md');
      expect((await second.stop()).code).toBe(0);
    } finally {
      const exit = await first.stop();
      expect(exit.stdout).not.toContain('"event":"reloaded"');
      rmSync(otherIndex, { recursive: true, force: true });
    }
  });
});

describe('svc-docs serve, when the model changed since the build', () => {
  it('says what differs and rebuilds the index once, then serves it', async () => {
    const corpus = writeCorpus({ 'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const index = tempDir('model-changed-index');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('model-changed-vectors') });
    expect((await run(['index', '--corpus', corpus, '--out', index], env)).code).toBe(0);
    // As if the default model had been rebuilt since: its checksum no longer matches the manifest's.
    const manifestFile = join(index, readFileSync(join(index, 'CURRENT'), 'utf8').trim(), 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { model: { checksum: string } };
    manifest.model.checksum = '0'.repeat(64);
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const server = await startServe(['--port', '0', '--corpus', corpus, '--index', index], env);
    try {
      const rebuilding = logEntries(server.stdout()).find((e) => e.event === 'index-build');
      expect(rebuilding).toMatchObject({ level: 'warn' });
      expect(rebuilding?.message).toMatch(
        /^\S+manifest\.json was built with model svc-glove-sif-100d \(100 dims, checksum 000000000000\) but the server loads svc-glove-sif-100d \(100 dims, checksum [0-9a-f]{12}\): rebuilding the index$/,
      );
      expect((await searchPaths(server.url, 'quokka enclosure'))[0]).toBe('kb/quokka.md');
    } finally {
      await server.stop();
    }
  });
});
