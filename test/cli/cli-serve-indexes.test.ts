import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { defaultCorpusDir, defaultIndexDir } from '../../src/settings/defaults.js';
import { cliEnv, killChildren, run, searchPaths, startServe } from '../helpers/cli.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { logEntries } from '../helpers/serve-log.js';

afterAll(killChildren);

/**
 * `svc-docs serve` and the index it serves: one index folder per corpus, and an index rebuilt once
 * when the model changed since its build. (Serving and a missing or stale index: cli-serve.test.ts;
 * the two were one file of 25 s and more at load 4-5.)
 */

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
