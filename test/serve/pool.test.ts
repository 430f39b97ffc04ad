import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { parseServerOptions } from '../../src/settings/server-options.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { SearchInputError } from '../../src/search/search-input.js';
import { openPooledEngine, type PooledEngine } from '../../src/serve/pool-engine.js';
import { SearchPool } from '../../src/serve/pool.js';
import { serve, type RunningDocsServer } from '../../src/serve/serve.js';
import { bundledIndex, fixtureIndex } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/**
 * The search pool: worker threads answer exactly what the in-process engine answers, and the
 * main thread stays free for the protocol while they work.
 */

const QUERIES = [
  'verify webhook signature',
  'refund a payment',
  'rate limits',
  'signiture verfy',
  'pagination cursor',
  'how do I rotate an API key',
];

let embedder: Embedder;
let inProcess: LoadedEngine;
let pool: SearchPool;
let pooled: PooledEngine;
beforeAll(async () => {
  embedder = await loadEmbedder();
  inProcess = await openEngine(bundledIndex(), { embedder });
  pool = new SearchPool(2);
  pooled = await openPooledEngine(pool, bundledIndex(), { embedder });
});
afterAll(async () => {
  await pooled?.close();
  await pool?.close();
  await embedder?.dispose();
});

describe('SearchPool', () => {
  it('answers every query exactly as the in-process engine does, also when queries run concurrently', async () => {
    const expected = await Promise.all(QUERIES.map((q) => inProcess.search(q, { limit: 7 })));
    expect(expected.some((r) => r.length > 0)).toBe(true);
    const got = await Promise.all([...QUERIES, ...QUERIES].map((q) => pooled.search(q, { limit: 7 })));
    expect(got).toEqual([...expected, ...expected]);
  });

  it('refuses bad input with the same error class as the engine', async () => {
    await expect(pooled.search('   ')).rejects.toBeInstanceOf(SearchInputError);
    await expect(pooled.search('webhook', { limit: 0 })).rejects.toBeInstanceOf(SearchInputError);
  });

  it('summarises the index as the engine does', () => {
    expect(pooled.summary()).toEqual(inProcess.summary());
  });

  it("serves waiting searches in turn by client: one client's burst does not hold up another's search", async () => {
    const single = new SearchPool(1);
    try {
      const engine = await openPooledEngine(single, bundledIndex(), { embedder });
      const finished: string[] = [];
      const run = (client: string, n: number) =>
        engine.search(QUERIES[n % QUERIES.length]!, { client }).then(() => finished.push(`${client}${n}`));
      const burst = Array.from({ length: 10 }, (_, n) => run('heavy', n));
      const light = run('light', 0);
      await Promise.all([...burst, light]);
      // Two searches go to the worker at once; then clients take turns: the light one is the fourth to finish, not the eleventh.
      expect(finished.indexOf('light0')).toBe(3);
      await engine.close();
    } finally {
      await single.close();
    }
  });

  it('lets a load under way finish before it stops a worker: one stopped while hnswlib read a graph aborted the process', async () => {
    const own = new SearchPool(1);
    const load = own.load.bind(own);
    let answered = false;
    let closing: Promise<void> | undefined;
    // Closed the moment the index is sent to the worker, as a server closing right after a reload began.
    vi.spyOn(own, 'load').mockImplementation((...args) => {
      const started = load(...args);
      const settle = () => (answered = true);
      started.loaded.then(settle, settle);
      closing = own.close();
      return started;
    });
    // Vector retrieval: the worker loads the HNSW graph, the native read the abort came from. A static
    // model's build writes no graph (its searches never read one), so this one asks for it.
    const withGraph = await fixtureIndex(SAMPLE_CORPUS, { vectorGraph: true });
    const opening = openPooledEngine(own, withGraph, { embedder }, { retrieval: 'vector' });
    await vi.waitFor(() => expect(closing).toBeDefined());
    await closing;
    expect(answered).toBe(true);
    await (await opening).close();
  });
});

function healthz(url: string): Promise<number> {
  const { origin } = new URL(url);
  return new Promise((resolve, reject) => {
    request(`${origin}/healthz`, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

/** A corpus where every one of 3,000 sections holds the same twelve words, and the queries asking for them. */
const SHARED_WORDS =
  'deploy cluster sync status health application manifest repository secret token webhook controller';
function crowdedCorpus(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 60; f++) {
    const sections = Array.from(
      { length: 50 },
      (_, s) =>
        `## Part ${f}-${s}\n\nThe ${SHARED_WORDS.split(' ')
          .slice(s % 6)
          .join(' ')} notes ${f} ${s}, then ${SHARED_WORDS}.\n`,
    );
    files[`crowd/page-${f}.md`] = `# Page ${f}\n\n${sections.join('\n')}`;
  }
  return files;
}

describe('a server searching in its pool', () => {
  let running: RunningDocsServer;
  beforeAll(async () => {
    const indexDir = await fixtureIndex(crowdedCorpus(), { embedder });
    running = await serve({
      indexDir,
      server: parseServerOptions({ port: 0 }),
      engine: { embedder },
      searchThreads: 1,
      log: () => {},
    });
  }, 120_000);
  afterAll(async () => {
    await running?.close();
  });

  it('answers /healthz while heavy searches are still running in the worker', async () => {
    // Each query matches every section: few words to embed (the main thread's part), the most
    // lexical and vector work a search can do (the worker's). With the searches on the main
    // thread (SVC_DOCS_SEARCH_THREADS=0) all of them finish before /healthz answers.
    const words = SHARED_WORDS.split(' ');
    const heavy = Array.from({ length: 24 }, (_, i) => [...words.slice(i % 12), ...words.slice(0, i % 12)].join(' '));
    const engine = running.live.current;
    let finished = 0;
    const searches = heavy.map((q) => engine.search(q).then((results) => (finished++, results)));
    const status = await healthz(running.http.url);
    const finishedAtHealthz = finished;
    const results = await Promise.all(searches);
    expect(status).toBe(200);
    expect(finishedAtHealthz).toBeLessThan(heavy.length / 2);
    expect(results.every((r) => r.length > 0)).toBe(true);
    expect(running.pool?.threads).toBe(1);
  });
});
