import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledIndex, sampleIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { buildTinyBert } from '../embedding/tiny-bert.js';
import { readIndex } from '../../src/index/open-index.js';
import { testRemote } from '../helpers/git-repo.js';
import { afterAll } from 'vitest';
import { cliEnv, expectOneLineError, killChildren, run } from '../helpers/cli.js';

afterAll(killChildren);

/** A user's mistake on any command: one line on stderr, a non-zero exit. */

describe.concurrent('svc-docs: a mistake is one line on stderr and a non-zero exit', () => {
  it('indexes with the model folder --model names, and searches with it', async () => {
    const model = buildTinyBert(join(tempDir('cli-model'), 'tiny-bert'));
    const corpus = writeCorpus({ 'kb/webhooks.md': '# Webhooks\n\n## Verify\n\nVerify the webhook signature.\n' });
    const out = tempDir('cli-model-index');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-model-vectors') });
    const indexed = await run(['index', '--corpus', corpus, '--out', out, '--model', model], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect((await readIndex(out)).manifest.model.id).toBe(model);
    const search = await run(['search', 'verify', 'webhook', '--json', '--index', out], env);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { path: string }[])[0]!.path).toBe('webhooks.md');
  });

  it('names a missing corpus folder', async () => {
    const missing = join(tempDir('cli'), 'no-such-corpus');
    expectOneLineError(
      await run(['index', '--corpus', missing, '--out', tempDir('cli-out')]),
      new RegExp(`corpus folder ${missing} does not exist`),
    );
  });

  it('names a git corpus whose branch is missing, and never prints a credential given in its URL', async () => {
    const remote = testRemote();
    remote.push({ 'a.md': '# A\n' });
    // Both fail before any model is needed: a cache of their own keeps the project's clean.
    const env = cliEnv({ SVC_DOCS_CACHE_DIR: tempDir('cli-cache') });
    expectOneLineError(
      await run(['index', '--corpus', `git+${remote.url}#nope`, '--out', tempDir('cli-out')], env),
      /: branch "nope" not found in the repository$/,
    );
    const secret = await run(
      ['index', '--corpus', 'git+https://alice:S3CRET@git.example.com/d.git', '--out', tempDir('cli-out')],
      env,
    );
    expectOneLineError(secret, /git\+https:\/\/\*\*\*@git\.example\.com\/d\.git: the URL carries credentials/);
    expect(secret.stderr).not.toMatch(/S3CRET|alice/);
  });

  it('refuses an empty search term', async () => {
    expectOneLineError(await run(['search', '   ', '--index', bundledIndex()]), /the search term is empty/);
  });

  it('searches one knowledge base with --kb, and names the served ones for an unknown name', async () => {
    const scoped = await run([
      'search',
      'mcpServers',
      'url',
      'webhooks',
      '--kb',
      'platform',
      '--json',
      '--index',
      sampleIndex(),
    ]);
    expect(scoped.code, scoped.stderr).toBe(0);
    const sources = (JSON.parse(scoped.stdout) as { source: string }[]).map((r) => r.source);
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(['platform']));
    expectOneLineError(
      await run(['search', 'webhooks', '--kb', 'nosuch', '--index', sampleIndex()]),
      /no knowledge base is named "nosuch": pass one of "(guide|platform)", "(guide|platform)"/,
    );
  });

  it('says there is no index to search or serve', async () => {
    const empty = tempDir('cli-empty');
    expectOneLineError(
      await run(['search', 'webhooks', '--index', empty]),
      /no index in .*: run 'svc-docs index' first/,
    );
    expectOneLineError(
      await run(['serve', '--no-build', '--port', '0', '--index', empty]),
      /no index in .*: run 'svc-docs index' first/,
      true,
    );
    expect(existsSync(join(empty, 'CURRENT'))).toBe(false);
  });

  it('says the port is taken, and exits', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      expectOneLineError(
        await run(['serve', '--no-build', '--port', String(port), '--index', bundledIndex()]),
        new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`),
        true,
      );
    } finally {
      taken.close();
    }
  });

  it("reads only the settings a command uses: search ignores the server's, serve names them", async () => {
    const env = cliEnv({ SVC_DOCS_PORT: 'abc', SVC_DOCS_AUTH_TOKEN_FILE: join(tempDir('cli'), 'missing') });
    const search = await run(['search', 'rate', 'limits', '--json', '--index', bundledIndex()], env);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { path: string }[]).map((r) => r.path)).toContain('limits.md');
    expectOneLineError(
      await run(['serve', '--no-build', '--index', bundledIndex()], env),
      /^svc-docs: SVC_DOCS_PORT must be a whole number, got "abc"$/,
    );
    expectOneLineError(
      await run(['index', '--out', tempDir('cli-out')], cliEnv({ SVC_DOCS_ALLOW_REMOTE_MODELS: 'maybe' })),
      /^svc-docs: SVC_DOCS_ALLOW_REMOTE_MODELS must be 1 or 0 \(true\/false, yes\/no, on\/off\), got "maybe"$/,
    );
  });

  it('refuses a config URL that is not a URL', async () => {
    expectOneLineError(await run(['config', '--url', 'not a url']), /--url must be an absolute URL/);
  });
});
