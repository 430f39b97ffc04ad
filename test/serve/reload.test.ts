import { cpSync, readFileSync, renameSync, rmSync, unwatchFile, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { parseServerOptions } from '../../src/settings/server-options.js';
import { serve, type RunningDocsServer, type ServeOptions } from '../../src/serve/serve.js';
import { buildTinyModel } from '../embedding/tiny-model.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { connectClient, type Connected, textOf } from '../helpers/mcp-client.js';
import { namedResults } from '../helpers/search-text.js';

/**
 * Live reload of a running server (src/serve/serve.ts) through the real MCP client: a new index is
 * swapped in under load without a failed request, a bad one is refused while the old one keeps
 * serving, and --watch reindexes an edited corpus.
 */

const QUERY = 'feeding schedule enclosure';
const OLD = 'quokka';
const NEW = 'wombat';

function feedingPage(animal: string): string {
  return `# Feeding schedule\n\nThe ${animal} enclosure is fed at noon.\n\n## Keepers\n\nTwo keepers look after the ${animal} enclosure.\n`;
}

const OTHER_PAGES = {
  'zoo/tickets.md': '# Tickets\n\nBuy tickets at the gate or online.\n',
  'zoo/parking.md': '# Parking\n\nThe car park opens at eight.\n',
};

const vectorCacheDir = () => join(inject('testTempRoot'), 'vectors');

/** A corpus with the feeding page about `animal`, and its index in a fresh folder. */
async function corpusAndIndex(animal: string): Promise<{ corpus: string; indexDir: string }> {
  const corpus = writeCorpus({ 'zoo/feeding.md': feedingPage(animal), ...OTHER_PAGES });
  const indexDir = tempDir('index');
  await rebuild(corpus, indexDir);
  return { corpus, indexDir };
}

/** Builds share one loaded default model (loading it takes a while); `model` builds with another. */
let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

async function rebuild(corpus: string, indexDir: string, model?: string): Promise<void> {
  await buildIndex({
    corpusDirs: [corpus],
    outDir: indexDir,
    vectorCacheDir: vectorCacheDir(),
    ...(model === undefined ? { embedder } : { model }),
  });
}

function setAnimal(corpus: string, animal: string): void {
  writeFileSync(join(corpus, 'zoo', 'feeding.md'), feedingPage(animal));
}

const opened: RunningDocsServer[] = [];
const clients: Connected[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const s of opened.splice(0)) await s.close();
});

async function start(indexDir: string, logs: string[], extra: Partial<ServeOptions> = {}): Promise<RunningDocsServer> {
  const running = await serve({
    indexDir,
    server: parseServerOptions({ port: 0 }),
    engine: {},
    // Searches run in the worker pool, as the server's default does on any machine.
    searchThreads: 2,
    log: (line) => logs.push(line),
    ...extra,
  });
  opened.push(running);
  return running;
}

async function connect(url: string): Promise<Connected> {
  const connected = await connectClient(url);
  clients.push(connected);
  return connected;
}

async function searchDocs(client: Client, term: string): Promise<string> {
  const result = (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: term } })) as CallToolResult;
  if (result.isError) throw new Error(`SearchDocs failed: ${JSON.stringify(result.content)}`);
  return textOf(result);
}

/** Which version of the feeding page the top result shows. */
function versionOf(answer: string): 'old' | 'new' {
  if (namedResults(answer)[0]?.path !== 'feeding.md')
    throw new Error(`expected feeding.md first, got ${JSON.stringify(namedResults(answer).map((r) => r.path))}`);
  const [, text = ''] = answer.split(/^===== Result \d+ =====\n/m);
  if (text.includes(OLD) && !text.includes(NEW)) return 'old';
  if (text.includes(NEW) && !text.includes(OLD)) return 'new';
  throw new Error(`the feeding page mixes versions: ${text}`);
}

/** Polls `check` until it returns true, failing with `what` after `timeoutMs`. */
async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function events(logs: string[], name: string): Record<string, unknown>[] {
  return logs
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.event === name);
}

describe('serve: a new index is picked up without a restart', () => {
  it('swaps under continuous load across several sessions with no failed request, and the sessions survive', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const logs: string[] = [];
    const running = await start(indexDir, logs);
    const sessions = await Promise.all(Array.from({ length: 4 }, () => connect(running.http.url)));
    const ids = sessions.map((s) => s.transport.sessionId);

    const seen: ('old' | 'new')[][] = sessions.map(() => []);
    const failures: string[] = [];
    let stop = false;
    const load = sessions.map(async ({ client }, i) => {
      while (!stop) {
        try {
          seen[i]!.push(versionOf(await searchDocs(client, QUERY)));
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    });
    const calls = () => seen.reduce((n, s) => n + s.length, 0);
    try {
      await waitFor('searches on the old index', () => seen.every((s) => s.length >= 10));
      setAnimal(corpus, NEW);
      await rebuild(corpus, indexDir);
      // The server notices CURRENT change by itself (polled); each session then sees the new page.
      await waitFor('every session to see the new index', () => seen.every((s) => s.includes('new')));
      const switched = seen.map((s) => s.indexOf('new'));
      await waitFor(
        'a few hundred searches, many after the swap',
        () => calls() >= 300 && seen.every((s, i) => s.length - switched[i]! >= 25),
      );
    } finally {
      stop = true;
      await Promise.all(load);
    }

    expect(failures).toEqual([]);
    expect(calls()).toBeGreaterThanOrEqual(300);
    for (const s of seen) {
      // One swap: old results, then only new ones (never a mix or a step back).
      const first = s.indexOf('new');
      expect(first).toBeGreaterThan(0);
      expect(s.slice(0, first).every((v) => v === 'old')).toBe(true);
      expect(s.slice(first).every((v) => v === 'new')).toBe(true);
    }
    expect(sessions.map((s) => s.transport.sessionId)).toEqual(ids);
    expect(running.http.sessionCount()).toBe(4);
    const reloaded = events(logs, 'reloaded');
    expect(reloaded).toHaveLength(1);
    expect(reloaded[0]!.index).toBe(await currentBuildDir(indexDir));
    expect(events(logs, 'reload-refused')).toEqual([]);
  });

  it('reloads on SIGHUP', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const logs: string[] = [];
    const running = await start(indexDir, logs);
    // Stop the CURRENT poller, so only the signal can cause the reload.
    unwatchFile(join(indexDir, 'CURRENT'));
    const { client } = await connect(running.http.url);
    setAnimal(corpus, NEW);
    await rebuild(corpus, indexDir);
    process.kill(process.pid, 'SIGHUP');
    await waitFor('the reload', () => events(logs, 'reloaded').length === 1);
    expect(versionOf(await searchDocs(client, QUERY))).toBe('new');
  });
});

describe('serve: a bad new index is refused and the old one keeps serving', () => {
  it('refuses a build with a corrupt file, logs why, and later takes a good build', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const serving = await currentBuildDir(indexDir);
    const logs: string[] = [];
    const running = await start(indexDir, logs);
    const { client } = await connect(running.http.url);

    // A complete new build, copied in beside the served one with its vectors damaged, then made current.
    const scratch = (await corpusAndIndex(NEW)).indexDir;
    const good = (await currentBuildDir(scratch))!;
    const bad = join(indexDir, basename(good));
    cpSync(good, bad, { recursive: true });
    const vectors = readFileSync(join(bad, 'vectors.f32'));
    vectors[0] = vectors[0]! ^ 0xff;
    writeFileSync(join(bad, 'vectors.f32'), vectors);
    writeFileSync(join(indexDir, 'CURRENT.tmp'), `${basename(bad)}\n`);
    renameSync(join(indexDir, 'CURRENT.tmp'), join(indexDir, 'CURRENT'));

    expect(await running.live.reload()).toBe(false);
    const refused = events(logs, 'reload-refused');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toMatchObject({ build: bad, serving });
    expect(refused[0]!.error).toMatch(/vectors\.f32 is corrupt \(checksum mismatch\): run 'svc-docs index'/);
    expect(events(logs, 'reloaded')).toEqual([]);
    expect(running.live.current.index.buildDir).toBe(serving);
    expect(versionOf(await searchDocs(client, QUERY))).toBe('old');

    // Fixing the index (a normal rebuild) is picked up by the same server.
    setAnimal(corpus, NEW);
    await rebuild(corpus, indexDir);
    await waitFor('the good build to be served', async () => versionOf(await searchDocs(client, QUERY)) === 'new');
  });

  it('refuses an index built with another model than the server is configured for', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const serving = await currentBuildDir(indexDir);
    const logs: string[] = [];
    const running = await start(indexDir, logs, { engine: { model: 'default' } });
    const { client } = await connect(running.http.url);

    const tinyModel = buildTinyModel(tempDir('tiny-model'));
    setAnimal(corpus, NEW);
    await rebuild(corpus, indexDir, tinyModel);

    expect(await running.live.reload()).toBe(false);
    const refused = events(logs, 'reload-refused');
    expect(refused[0]).toMatchObject({ build: await currentBuildDir(indexDir), serving });
    expect(refused[0]!.error).toContain(
      `was built with model ${tinyModel} (8 dims) but the server is configured for default`,
    );
    expect(versionOf(await searchDocs(client, QUERY))).toBe('old');
  });

  it('refuses an index whose model cannot be loaded', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const logs: string[] = [];
    const running = await start(indexDir, logs);
    const { client } = await connect(running.http.url);

    const tinyModel = buildTinyModel(tempDir('tiny-model'));
    setAnimal(corpus, NEW);
    await rebuild(corpus, indexDir, tinyModel);
    rmSync(tinyModel, { recursive: true });

    expect(await running.live.reload()).toBe(false);
    expect(events(logs, 'reload-refused')[0]!.error).toMatch(/model folder .* does not exist/);
    expect(versionOf(await searchDocs(client, QUERY))).toBe('old');
  });
});

describe('serve --watch', () => {
  it('reindexes and reloads when a corpus file changes, once for a burst of edits', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const logs: string[] = [];
    let rebuilds = 0;
    const running = await start(indexDir, logs, {
      watch: {
        dirs: [corpus],
        debounceMs: 1000,
        rebuild: async () => {
          rebuilds++;
          await rebuild(corpus, indexDir);
        },
      },
    });
    const { client } = await connect(running.http.url);
    expect(versionOf(await searchDocs(client, QUERY))).toBe('old');

    // Five saves in a row, as an editor or a git checkout makes them: one rebuild.
    for (let i = 0; i < 5; i++) setAnimal(corpus, i === 4 ? NEW : `${OLD} ${i}`);
    await waitFor('the edited page to be found', async () => versionOf(await searchDocs(client, QUERY)) === 'new');
    expect(rebuilds).toBe(1);
    expect(events(logs, 'reindex-failed')).toEqual([]);
  });

  it('on close, waits for a rebuild under way instead of reloading into a stopped server', async () => {
    const { corpus, indexDir } = await corpusAndIndex(OLD);
    const order: string[] = [];
    let started!: () => void;
    const rebuildStarted = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const running = await start(indexDir, [], {
      watch: {
        dirs: [corpus],
        debounceMs: 50,
        rebuild: async () => {
          started();
          await new Promise<void>((resolve) => (finish = resolve));
          await rebuild(corpus, indexDir);
          order.push('rebuilt');
        },
      },
    });
    opened.splice(opened.indexOf(running), 1);
    setAnimal(corpus, NEW);
    await rebuildStarted;
    const closing = running.close().then(() => order.push('closed'));
    // Give close every chance to finish early; it must not, while the rebuild runs.
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 1000))]);
    finish();
    await closing;
    expect(order).toEqual(['rebuilt', 'closed']);
  });
});
