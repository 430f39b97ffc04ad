import { renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { type LoadedEngine, openEngine } from '../../src/search/engine.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * LiveEngine on its own: which engine it serves after reloads that overlap, and that replacing
 * an engine never disposes the model the new one still uses. `openEngine` is wrapped so a test
 * can hold a reload after it has loaded its index, before the swap.
 */

const hooks = vi.hoisted(() => ({ afterOpen: undefined as (() => Promise<void>) | undefined }));
vi.mock('../../src/search/engine.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/search/engine.js')>();
  return {
    ...real,
    openEngine: async (...args: Parameters<typeof real.openEngine>) => {
      const engine = await real.openEngine(...args);
      await hooks.afterOpen?.();
      return engine;
    },
  };
});

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

const lives: LiveEngine[] = [];
afterEach(async () => {
  hooks.afterOpen = undefined;
  for (const live of lives.splice(0)) await live.close();
});

function page(word: string): Record<string, string> {
  return {
    'zoo/feeding.md': `# Feeding\n\nThe ${word} enclosure is fed at noon.\n`,
    'zoo/tickets.md': '# Tickets\n\nBuy tickets at the gate.\n',
  };
}

/** Builds `files` into `indexDir` (a new build that CURRENT then names) and returns the build folder. */
async function build(indexDir: string, files: Record<string, string>): Promise<string> {
  const summary = await buildIndex({
    corpusDirs: [writeCorpus(files)],
    outDir: indexDir,
    embedder,
    vectorCacheDir: join(inject('testTempRoot'), 'vectors'),
  });
  return summary.buildDir;
}

function pointCurrentAt(indexDir: string, buildDir: string): void {
  writeFileSync(join(indexDir, 'CURRENT.tmp'), `${basename(buildDir)}\n`);
  renameSync(join(indexDir, 'CURRENT.tmp'), join(indexDir, 'CURRENT'));
}

async function topText(live: LiveEngine, term: string): Promise<string> {
  const [top] = await live.current.search(term);
  return top?.sections.map((s) => s.text).join('\n') ?? '';
}

describe('LiveEngine', () => {
  it('serves the newest build when CURRENT moves on while a reload is loading the previous one', async () => {
    const indexDir = tempDir('index');
    await build(indexDir, page('quokka'));
    const logs: string[] = [];
    const live = new LiveEngine({ indexDir, initial: await openEngine(indexDir), log: (line) => logs.push(line) });
    lives.push(live);
    const second = await build(indexDir, page('wombat'));
    const third = await build(indexDir, page('numbat'));
    pointCurrentAt(indexDir, second);

    // Hold the first reload after it loaded `second`; meanwhile `third` becomes current and is asked for.
    let loaded!: () => void;
    const isLoaded = new Promise<void>((resolve) => (loaded = resolve));
    let release!: () => void;
    hooks.afterOpen = () => {
      hooks.afterOpen = undefined;
      loaded();
      return new Promise<void>((resolve) => (release = resolve));
    };
    const first = live.reload();
    await isLoaded;
    pointCurrentAt(indexDir, third);
    const again = live.reload();
    release();
    expect(await first).toBe(true);
    expect(await again).toBe(true);

    expect(live.current.index.buildDir).toBe(third);
    expect(await currentBuildDir(indexDir)).toBe(third);
    expect(await topText(live, 'feeding enclosure')).toContain('numbat');
    expect(logs.map((l) => (JSON.parse(l) as { index: string }).index)).toEqual([second, third]);
  });

  it('keeps the shared model working after the replaced engine is retired', async () => {
    const indexDir = tempDir('index');
    await build(indexDir, page('quokka'));
    // No grace period: the replaced engine is retired at once.
    const live = new LiveEngine({ indexDir, initial: await openEngine(indexDir), log: () => undefined, graceMs: 0 });
    lives.push(live);
    const initialModel = live.current.embedder;
    await build(indexDir, page('wombat'));
    expect(await live.reload()).toBe(true);
    // Same model: the new engine uses the model the first engine loaded.
    expect(live.current.embedder).toBe(initialModel);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await topText(live, 'feeding enclosure')).toContain('wombat');

    await build(indexDir, page('numbat'));
    expect(await live.reload()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await topText(live, 'feeding enclosure')).toContain('numbat');
  });

  it('releases a replaced index as soon as no search runs on it, not a grace period later', async () => {
    const indexDir = tempDir('index');
    await build(indexDir, page('quokka'));
    // The graph is loaded (a corpus this small is otherwise searched exactly) so its freeing shows.
    const withGraph = (dir: string, options: Parameters<typeof openEngine>[1]) =>
      openEngine(dir, options, { vectorSearch: 'hnsw' });
    // The default 30 s grace period: only an idle index is released at once.
    const live = new LiveEngine({
      indexDir,
      initial: await withGraph(indexDir, {}),
      open: withGraph,
      log: () => undefined,
    });
    lives.push(live);
    const first = live.current;
    const released = vi.spyOn(first, 'releaseIndex');
    // A search on the first index, held while the index is replaced.
    let finish!: () => void;
    const search = first.search.bind(first);
    vi.spyOn(first, 'search').mockImplementationOnce(async (term, options) => {
      await new Promise<void>((resolve) => (finish = resolve));
      return search(term, options);
    });
    const held = live.search('feeding enclosure');
    await build(indexDir, page('wombat'));
    expect(await live.reload()).toBe(true);
    expect(released).not.toHaveBeenCalled();
    finish();
    // The held search finishes on the index it started on, which is then released.
    expect((await held)[0]?.sections.map((s) => s.text).join('\n')).toContain('quokka');
    await vi.waitFor(() => expect(released).toHaveBeenCalledTimes(1));
    const second = live.current as LoadedEngine;
    const releasedSecond = vi.spyOn(second, 'releaseIndex');
    await build(indexDir, page('numbat'));
    expect(await live.reload()).toBe(true);
    await vi.waitFor(() => expect(releasedSecond).toHaveBeenCalledTimes(1));
    expect(await topText(live, 'feeding enclosure')).toContain('numbat');
    const graph = second.index.hnsw;
    if (graph === undefined) throw new Error('the engine was opened with its graph (vectorSearch hnsw)');
    expect(() => graph.search(new Float32Array(second.index.manifest.model.dimensions), 1)).toThrow(/graph was freed/);
  });

  it('disposes the model once the last engine using it is closed', async () => {
    const indexDir = tempDir('index');
    await build(indexDir, page('quokka'));
    const live = new LiveEngine({ indexDir, initial: await openEngine(indexDir), log: () => undefined });
    const model = live.current.embedder;
    const dispose = vi.spyOn(model, 'dispose');
    await build(indexDir, page('wombat'));
    expect(await live.reload()).toBe(true);
    expect(dispose).not.toHaveBeenCalled();
    await live.close();
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});
