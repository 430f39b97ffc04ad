import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import wordListPath from 'word-list';
import { z } from 'zod';
import { DEFAULT_MODEL_ID, ensureDefaultModel } from '../../src/embedding/default-model.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { openPooledEngine } from '../../src/serve/pool-engine.js';
import { SearchPool } from '../../src/serve/pool.js';
import { SortedWords } from '../../src/search/typos.js';
import { defaultSearchThreads } from '../../src/settings/defaults.js';
import { SERVER_V8_FLAGS } from '../../src/cli/server-heap.js';
import { runIfEntry } from '../lib/probe-entry.js';
import { cacheDirOf } from '../../src/settings/commands.js';

/**
 * Child process of the memory benchmark: where the server's megabytes go, step by step in a fresh
 * process (RSS and V8 after a full GC at each step): the model, the index as read (and the size of
 * each of its parts), the typo dictionary (compact, and as the Set it used to be), the search pool
 * with one worker and with two (the difference is what a worker costs), and the process after a
 * burst of searches. Also the index and the model on disk, for the RSS-over-disk ratio. bench/speed/http.ts
 * starts it with the V8 settings `svc-docs serve` sets for itself (src/cli/server-heap.ts), preloaded.
 *
 * node bench/speed/memory-probe.js --index DIR --queries FILE.json
 */

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export const memoryReportSchema = z.object({
  baseRssMB: z.number(),
  model: z.object({ rssMB: z.number(), heapMB: z.number(), externalMB: z.number() }),
  index: z.object({ rssMB: z.number(), heapMB: z.number(), parts: z.record(z.string(), z.number()) }),
  dictionary: z.object({ compactMB: z.number(), asSetMB: z.number() }),
  pool: z.object({
    /** The first worker with the index loaded into the pool: idleWorkerMB plus the index's share. */
    oneWorkerMB: z.number(),
    /** The first worker before any index: the thread, its V8 heap and its imports. */
    idleWorkerMB: z.number().optional(),
    perExtraWorkerMB: z.number(),
    threads: z.number(),
  }),
  afterLoad: z.object({
    rssMB: z.number(),
    heapUsedMB: z.number(),
    heapTotalMB: z.number(),
    externalMB: z.number(),
    arrayBuffersMB: z.number(),
    /** The main thread's young generation (V8 new space): it grows under load and is kept. */
    newSpaceMB: z.number().optional(),
  }),
  disk: z.object({ indexMB: z.number(), modelMB: z.number() }),
  rssOverDisk: z.number(),
  /** The server's V8 flags (src/cli/server-heap.ts), which bench/speed/http.ts preloads into the probe. */
  v8Flags: z.array(z.string()).optional(),
});
export type MemoryReport = z.infer<typeof memoryReportSchema>;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function measure(): NodeJS.MemoryUsage {
  gc();
  gc();
  return process.memoryUsage();
}

/** Bytes of a folder's files; hidden ones (the model's digest and compiled caches) are derived, not the model. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** RSS the index adds once read, and what each of its in-memory parts takes. */
async function indexCost(indexDir: string) {
  const index = await readIndex(indexDir);
  const afterIndex = measure();
  const lex = index.lexical;
  const store = index.sections.parts;
  const parts = {
    sectionVectorsMB: mb(index.vectors.data.byteLength),
    /** The terms and where each term's postings lie (the postings themselves are read by term). */
    termDictionaryMB: mb(lex.termBlob.byteLength + lex.termOffsets.byteLength + lex.termStart.byteLength),
    lengthsMB: mb(lex.lengths.title.byteLength + lex.lengths.headings.byteLength + lex.lengths.body.byteLength),
    /** Per section: document, role, parent, and where its headings and text lie (the text is read by range). */
    sectionColumnsMB: mb(
      store.doc.byteLength +
        store.roles.byteLength +
        index.parents.byteLength +
        store.headingStart.byteLength +
        store.headings.offsets.byteLength +
        store.text.offsets.byteLength,
    ),
    /** On disk, read when a query or a result needs them. */
    postingsOnDiskMB: mb(lex.sections.count * 10),
    sectionTextOnDiskMB: mb(store.text.offsets[store.text.count]! + store.headings.offsets[store.headings.count]!),
    // Only a build whose searches read the graph has one (a sentence model's).
    hnswFileMB: existsSync(join(index.buildDir, 'vectors.hnsw'))
      ? mb(statSync(join(index.buildDir, 'vectors.hnsw')).size)
      : 0,
  };
  index.sections.close();
  return { afterIndex, parts };
}

/** The word list as the compact sorted dictionary and as a Set of strings, in MB each. */
function dictionaryCost() {
  let before = measure();
  let compact: SortedWords | undefined = new SortedWords(readFileSync(wordListPath, 'utf8'));
  const compactMB = mb(measure().rss - before.rss);
  compact = undefined;
  const words = readFileSync(wordListPath, 'utf8').split('\n');
  before = measure();
  let asSet: Set<string> | undefined = new Set(words);
  const asSetMB = mb(measure().rss - before.rss);
  asSet = undefined;
  void compact;
  void asSet;
  return { compactMB, asSetMB };
}

/** The search pool's cost with one and two workers, then the default number serving every query. */
async function poolCost(indexDir: string, embedder: Embedder, queries: string[]) {
  const withPool = async (threads: number, idle?: (rss: number) => void) => {
    const pool = new SearchPool(threads);
    if (idle) {
      await pool.started();
      idle(measure().rss);
    }
    const engine = await openPooledEngine(pool, indexDir, { embedder });
    for (const q of queries.slice(0, 20)) await engine.search(q);
    return { pool, engine, rss: measure().rss };
  };
  const beforePool = measure();
  let idleRss = beforePool.rss;
  const one = await withPool(1, (rss) => (idleRss = rss));
  await one.engine.releaseIndex();
  await one.pool.close();
  const two = await withPool(2);
  await two.engine.releaseIndex();
  await two.pool.close();
  const threads = defaultSearchThreads();
  const served = await withPool(threads);
  await Promise.all(queries.flatMap((q) => [served.engine.search(q), served.engine.search(q, { limit: 10 })]));
  const after = measure();
  await served.engine.releaseIndex();
  await served.pool.close();
  const pool = {
    oneWorkerMB: mb(one.rss - beforePool.rss),
    idleWorkerMB: mb(idleRss - beforePool.rss),
    perExtraWorkerMB: mb(two.rss - one.rss),
    threads,
  };
  return { pool, after };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { index: { type: 'string' }, queries: { type: 'string' } } });
  const indexDir = values.index!;
  const queries = (JSON.parse(readFileSync(values.queries!, 'utf8')) as { queries: { query: string }[] }).queries.map(
    (q) => q.query,
  );
  const base = measure();
  // As the server loads it: the table's rows are read from the model file, not held (pool-engine.ts).
  const embedder = await loadEmbedder({ tableRows: 'file', cacheDir: cacheDirOf(process.env) });
  await embedder.embed(['warm the model up']);
  const afterModel = measure();
  const { afterIndex, parts } = await indexCost(indexDir);
  const dictionary = dictionaryCost();
  const { pool, after } = await poolCost(indexDir, embedder, queries);
  const modelDir =
    embedder.modelId === DEFAULT_MODEL_ID ? await ensureDefaultModel({ cacheDir: cacheDirOf(process.env) }) : undefined;
  const disk = {
    indexMB: mb(folderBytes((await currentBuildDir(indexDir))!)),
    modelMB: modelDir ? mb(folderBytes(modelDir)) : 0,
  };
  await embedder.dispose();
  const report: MemoryReport = {
    baseRssMB: mb(base.rss),
    model: {
      rssMB: mb(afterModel.rss - base.rss),
      heapMB: mb(afterModel.heapUsed - base.heapUsed),
      externalMB: mb(afterModel.external - base.external),
    },
    index: { rssMB: mb(afterIndex.rss - afterModel.rss), heapMB: mb(afterIndex.heapUsed - afterModel.heapUsed), parts },
    dictionary,
    pool,
    afterLoad: {
      rssMB: mb(after.rss),
      heapUsedMB: mb(after.heapUsed),
      heapTotalMB: mb(after.heapTotal),
      externalMB: mb(after.external),
      arrayBuffersMB: mb(after.arrayBuffers),
      newSpaceMB: mb(getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0),
    },
    disk,
    rssOverDisk: Math.round((mb(after.rss) / (disk.indexMB + disk.modelMB)) * 100) / 100,
    v8Flags: [...SERVER_V8_FLAGS],
  };
  console.log(JSON.stringify(report));
}

runIfEntry('speed/memory-probe.js', main);
