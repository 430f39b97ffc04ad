import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { bundledIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { connectClient } from '../helpers/mcp-client.js';
import { alive, buildWriter } from '../helpers/processes.js';
import { buildTinyBert } from '../embedding/tiny-bert.js';
import { readIndex } from '../../src/index/open-index.js';
import { defaultCorpusDir, defaultIndexDir } from '../../src/settings/defaults.js';
import { corpusKey, parseCorpusSpec } from '../../src/corpus-spec.js';
import { testRemote } from '../helpers/git-repo.js';
import { logEntries, readyUrl } from '../helpers/serve-log.js';

/** The real command line, spawned as users run it: output, exit codes, and serve's lifecycle. */

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment without the user's SVC_DOCS_* settings, plus `extra`. */
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_') && k !== 'NODE_OPTIONS'),
  );
  return { ...env, ...extra };
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** The CLI from source through tsx; `entry` runs another build of it (e.g. npm start's transpiled one). */
const FROM_SOURCE = ['--import', 'tsx', 'src/cli.ts'];

function spawnCli(args: string[], env: NodeJS.ProcessEnv, entry = FROM_SOURCE): ChildProcess {
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: projectRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

/** Output so far and the exit, with a bounded wait: a process that hangs fails the test. */
function finished(child: ChildProcess, timeoutMs = 60_000): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-docs did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function run(args: string[], env: NodeJS.ProcessEnv = cliEnv()): Promise<Finished> {
  return finished(spawnCli(args, env));
}

/**
 * A user's mistake: exactly one line on stderr, starting with svc-docs:, non-zero exit; nothing on
 * stdout, or for `serve`, which had begun its log, JSON entries ending with the failed start.
 */
function expectOneLineError(result: Finished, pattern: RegExp, logged = false): void {
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-docs: /);
  expect(lines[0]).toMatch(pattern);
  if (!logged) expect(result.stdout).toBe('');
  else {
    const log = logEntries(result.stdout);
    expect(log[0]!.event).toBe('start');
    expect(log.at(-1)).toMatchObject({ level: 'error', event: 'start-failed', error: expect.stringMatching(pattern) });
  }
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
}

describe('svc-docs index and search', () => {
  it('indexes a corpus, reports what changed on a reindex, and searches it as JSON', async () => {
    const corpus = writeCorpus({
      'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n',
      'kb/tickets.md': '# Tickets\n\nBuy tickets at the gate.\n',
    });
    const out = tempDir('cli-index');
    const vectors = tempDir('cli-vectors');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: vectors });

    const first = await run(['index', '--corpus', corpus, '--out', out], env);
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^indexed 2 documents \(2 parsed, 0 unchanged\), 2 sections from kb in \d+\.\d s$/);
    expect(lines[1]).toMatch(/^section vectors: 2 embedded, 0 reused from cache; \d+ new vocabulary words embedded$/);
    expect(lines.slice(2, 5)).toEqual([
      'changes since the previous index: 2 added, 0 changed, 0 removed',
      '  + kb/quokka.md',
      '  + kb/tickets.md',
    ]);
    expect(lines[5]).toMatch(new RegExp(`^index written to ${out}/build-[\\w-]+$`));
    expect(lines).toHaveLength(6);
    // SVC_DOCS_VECTOR_CACHE_DIR is where the vectors went.
    expect(readdirSync(vectors).filter((f) => f.endsWith('.bin'))).toHaveLength(1);

    writeFileSync(join(corpus, 'kb', 'quokka.md'), '# Quokkas\n\nThe quokka enclosure opens at ten.\n');
    const second = await run(['index', '--corpus', corpus, '--out', out], env);
    expect(second.code, second.stderr).toBe(0);
    const again = second.stdout.trimEnd().split('\n');
    expect(again[0]).toMatch(/^indexed 2 documents \(1 parsed, 1 unchanged\), /);
    expect(again[1]).toMatch(/^section vectors: 1 embedded, 1 reused from cache; /);
    expect(again.slice(2, 4)).toEqual([
      'changes since the previous index: 0 added, 1 changed, 0 removed',
      '  ~ kb/quokka.md',
    ]);

    const search = await run(['search', 'quokka', 'enclosure', '--json', '--index', out]);
    expect(search.code, search.stderr).toBe(0);
    const results = JSON.parse(search.stdout) as { source: string; path: string; sections: { text: string }[] }[];
    expect(results[0]).toMatchObject({ source: 'kb', path: 'quokka.md' });
    expect(results[0]!.sections.map((s) => s.text).join('\n')).toContain('opens at ten');
  });
});

describe('svc-docs index on a folder of several formats', () => {
  it('indexes HTML, plain text and notebooks, and names each file it leaves out once, with why', async () => {
    const notebook = JSON.stringify({
      nbformat: 4,
      metadata: { kernelspec: { language: 'python' } },
      cells: [{ cell_type: 'markdown', source: '# Wombat feeding\n\nWombats eat grass at dusk.' }],
    });
    const corpus = writeCorpus({
      'kb/page.html':
        '<html><head><title>Quokkas | Zoo</title></head><body><nav>Menu</nav><main><h1>Quokkas</h1><p>The quokka enclosure opens at nine.</p></main></body></html>',
      'kb/notes.txt': 'Tickets\n=======\n\nBuy tickets at the gate.\n',
      'kb/feeding.ipynb': notebook,
      'kb/broken.ipynb': '{ "cells": [',
      'kb/huge.md': `# Huge\n\n${'x'.repeat(3000)}\n`,
      'kb/img/map.png': 'png',
      'kb/img/logo.png': 'png',
      'kb/api.rst': 'API\n===\n',
    });
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-vectors'), SVC_DOCS_MAX_FILE_BYTES: '2000' });
    const result = await run(['index', '--corpus', corpus, '--out', tempDir('cli-index')], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^indexed 3 documents \(3 parsed, 0 unchanged\), 3 sections from kb in /);
    expect(lines[1]).toBe(
      'skipped 5 files (named above): 1 over the size limit, 1 that could not be read, 3 of types not read',
    );
    const told = (pattern: RegExp) => result.stderr.split('\n').filter((l) => pattern.test(l));
    expect(told(/huge\.md/)).toEqual([
      'skipped kb/huge.md: 3,009 bytes is over the limit of 2,000 bytes per file (SVC_DOCS_MAX_FILE_BYTES)',
    ]);
    expect(told(/broken\.ipynb/)).toEqual([
      'skipped kb/broken.ipynb: it could not be read as a Jupyter notebook (its text is not JSON); the rest of the corpus is indexed',
    ]);
    expect(told(/\.rst/)).toEqual([
      expect.stringMatching(/^skipped 1 file of type \.rst: reStructuredText has no well-kept/),
    ]);
    expect(told(/\.png/)).toEqual(['skipped 2 files of unsupported types: .png (2)']);

    const search = await run([
      'search',
      'quokka',
      'enclosure',
      '--json',
      '--index',
      lines.at(-1)!.replace(/^index written to (.*)\/build-[\w-]+$/, '$1'),
    ]);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout)[0]).toMatchObject({ title: 'Quokkas', path: 'page.html' });
  });
});

describe('svc-docs: each command loads only what it runs', () => {
  /** The server's modules: about 0.13 s to load, of no use to a build or a client config. */
  const SERVER_MODULES =
    /\/node_modules\/(express|@modelcontextprotocol)\/|\/src\/serve\.ts$|\/src\/search\/engine\.ts$/;
  /** The Markdown parser's: about 0.1 s, of no use to a server whose index is current. */
  const PARSER_MODULES = /\/node_modules\/(remark-parse|remark-gfm|micromark)\/|\/indexer\/chunk\.ts$/;

  it('index, config and report run without loading the server (express, the MCP SDK, the search engine)', async () => {
    const corpus = writeCorpus({ 'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const vectors = tempDir('cli-modules-vectors');
    const [index, config, report] = await Promise.all(
      [
        ['index', '--corpus', corpus, '--out', tempDir('cli-modules-out'), '--vector-cache', vectors],
        ['config', '--url', 'http://127.0.0.1:8080/docs'],
        ['report', '--index', bundledIndex()],
      ].map(async (args) => {
        const modules = recordedModules();
        const result = await finished(spawnCli(args, cliEnv(modules.env), modules.entry));
        expect(result.code, result.stderr).toBe(0);
        return modules.loaded();
      }),
    );
    // What each command does run is recorded: the list is the process's, not empty.
    expect(index!.some((url) => url.endsWith('/indexer/build.ts'))).toBe(true);
    expect(config!.some((url) => url.endsWith('/src/cli/client-config.ts'))).toBe(true);
    expect(report!.some((url) => url.endsWith('/src/observe/gap-report.ts'))).toBe(true);
    for (const loaded of [index!, config!, report!])
      expect(loaded.filter((url) => SERVER_MODULES.test(url))).toEqual([]);
  });

  it('index loads a format converter only for a corpus that has files of its format', async () => {
    /** The HTML page path (hast-util-select), Asciidoctor.js and the other converters: about 0.1 s and 0.4 s. */
    const CONVERTERS =
      /\/indexer\/formats\/(html-page|text|notebook|asciidoc)\.ts$|\/node_modules\/(@asciidoctor|hast-util-select)\//;
    const indexed = async (files: Record<string, string>) => {
      const modules = recordedModules();
      const args = ['index', '--corpus', writeCorpus(files), '--out', tempDir('cli-formats-out')];
      const env = cliEnv({ ...modules.env, SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-formats-vectors') });
      const result = await finished(spawnCli(args, env, modules.entry));
      expect(result.code, result.stderr).toBe(0);
      return modules.loaded().filter((url) => CONVERTERS.test(url));
    };
    expect(await indexed({ 'kb/quokka.md': '# Quokkas\n\nThe enclosure opens at nine.\n' })).toEqual([]);
    const html = await indexed({ 'kb/quokka.html': '<h1>Quokkas</h1><p>The enclosure opens at nine.</p>' });
    expect(html.some((url) => url.endsWith('/indexer/formats/html-page.ts'))).toBe(true);
    expect(html.some((url) => /@asciidoctor|notebook/.test(url))).toBe(false);
  });

  it('serve checks that its index is current without loading the Markdown parser', async () => {
    const corpus = writeCorpus({ 'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const args = ['serve', '--port', '0', '--corpus', corpus, '--index', tempDir('cli-modules-index')];
    const env = { SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-modules-vectors') };
    // The first start builds the index (the parser loads), the second finds it current.
    for (const built of [true, false]) {
      const modules = recordedModules();
      const server = await startServe(args, cliEnv({ ...env, ...modules.env }), modules.entry);
      expect((await searchPaths(server.url, 'quokka enclosure'))[0]).toBe('kb/quokka.md');
      const exit = await server.stop();
      expect(exit.code, exit.stderr).toBe(0);
      const loaded = modules.loaded();
      expect(loaded.some((url) => url.endsWith('/indexer/reindex/index-status.ts'))).toBe(true);
      expect(loaded.some((url) => PARSER_MODULES.test(url))).toBe(built);
    }
  });
});

/**
 * A CLI run that records the URL of every module its main thread loads
 * (test/cli/record-loaded-modules.mjs): `entry` and `env` (to add) to spawn it with, `loaded()` after its exit.
 */
function recordedModules(): { entry: string[]; env: Record<string, string>; loaded: () => string[] } {
  const file = join(tempDir('cli-modules'), 'loaded.txt');
  const hook = join(projectRoot(), 'test', 'cli', 'record-loaded-modules.mjs');
  return {
    entry: ['--import', hook, ...FROM_SOURCE],
    env: { LOADED_MODULES_FILE: file },
    loaded: () => readFileSync(file, 'utf8').split('\n'),
  };
}

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

describe('svc-docs config', () => {
  it('prints client configurations for the given URL', async () => {
    const result = await run(['config', '--url', 'http://docs.internal:9000/docs']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^# /);
    expect(result.stdout).toContain('"url": "http://docs.internal:9000/docs"');
    expect(result.stdout).not.toContain('127.0.0.1:8080');
    expect(result.stdout).not.toContain('Authorization');
  });

  it('adds the Authorization header placeholder when the server takes a token, inline or from a file', async () => {
    for (const variable of ['SVC_DOCS_AUTH_TOKEN', 'SVC_DOCS_AUTH_TOKEN_FILE']) {
      const result = await run(['config', '--url', 'http://docs.internal:9000/docs'], cliEnv({ [variable]: 'x' }));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, variable).toContain('Authorization');
    }
  });
});

describe('svc-docs serve', () => {
  it('serves SearchDocs over MCP at the URL it prints, and exits cleanly on SIGTERM', async () => {
    const server = await startServe(['serve', '--port', '0', '--no-build', '--index', bundledIndex()], cliEnv());
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
    const args = ['serve', '--port', '0', '--corpus', corpus, '--index', index];
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
    // The project's own cache folder (where the default model is), as npm start uses it.
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('own-index-vectors') });
    const ownIndex = defaultIndexDir([defaultCorpusDir()]);
    const other = writeCorpus({ 'zoo/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const otherIndex = defaultIndexDir([other]);
    const first = await startServe(['serve', '--port', '0'], env);
    try {
      const served = readFileSync(join(ownIndex, 'CURRENT'), 'utf8');
      expect(await searchPaths(first.url, 'rate limits')).toContain('svc-platform/limits.md');
      const second = await startServe(['serve', '--port', '0', '--corpus', other], env);
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

/** `svc-docs serve` started and serving: its URL (from the startup banner), its output, and a stop (SIGTERM) that waits for the exit. */
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
    const server = await startServe(['serve', '--port', '0', '--corpus', corpus, '--index', index], env);
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

describe("npm start's build (scripts/transpile.mjs)", () => {
  it('transpiles the sources into a CLI that serves searches, search workers included', async () => {
    // Inside the package, so the transpiled files resolve node_modules and the project root as dist/ does.
    mkdirSync(join(projectRoot(), '.cache'), { recursive: true });
    const out = mkdtempSync(join(projectRoot(), '.cache', 'transpiled-'));
    try {
      const transpiled = await finished(
        spawn(process.execPath, ['scripts/transpile.mjs', out], {
          cwd: projectRoot(),
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      expect(transpiled.code, transpiled.stderr).toBe(0);
      const args = ['serve', '--port', '0', '--no-build', '--index', bundledIndex()];
      const server = await startServe(args, cliEnv(), [join(out, 'src', 'cli.js')]);
      expect(await searchPaths(server.url, 'rate limits')).toContain('svc-platform/limits.md');
      expect((await server.stop()).code).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('svc-docs serve --watch', () => {
  it('reindexes in a child process while searches keep being answered, and serves the change: no request fails', async () => {
    const corpus = writeCorpus({
      'handbook/deploy.md': '# Deploy\n\n## Rollback\n\nRun the flamingo rollback to redeploy the previous tag.\n',
    });
    const index = tempDir('watch-index');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('watch-vectors'), SVC_DOCS_SEARCH_THREADS: '0' });
    const server = await startServe(['serve', '--port', '0', '--watch', '--corpus', corpus, '--index', index], env);
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
    const server = await startServe(['serve', '--port', '0', '--watch', '--corpus', corpus, '--index', index], env);
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

/** Polls `done` until it holds, failing with `context()` after `timeoutMs`. */
async function waitFor(
  done: () => boolean | Promise<boolean>,
  timeoutMs: number,
  context: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; output so far:\n${context()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  entry = FROM_SOURCE,
): Promise<{ url: string; pid: number | undefined; stdout: () => string; stop: () => Promise<Finished> }> {
  const child = spawnCli(args, env, entry);
  const exit = finished(child, 180_000);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready entry within 120 s: ${stdout}${stderr}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = readyUrl(stdout);
      if (ready !== undefined) {
        clearTimeout(timer);
        resolve(ready);
      }
    });
    child.once('exit', () => reject(new Error(`svc-docs serve exited before serving: ${stdout}${stderr}`)));
  });
  return {
    url,
    pid: child.pid,
    stdout: () => stdout,
    stop: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}

/** The pages SearchDocs returns for `term`, through the real MCP client; the session is ended. */
async function searchPaths(url: string, term: string): Promise<string[]> {
  const { client, transport, close } = await connectClient(url);
  try {
    const result = (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: term } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    // SearchDocs sends text only by default: each result names its Source and Path.
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    await transport.terminateSession();
    return [...text.matchAll(/^Source: (.+)\nPath: (.+)$/gm)].map((m) => `${m[1]}/${m[2]}`);
  } finally {
    await close();
  }
}
