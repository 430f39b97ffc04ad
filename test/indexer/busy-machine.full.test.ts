import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BoundedChunker, closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { chunkFile, type CorpusFile } from '../../indexer/parse/chunk-file.js';
import { ownCpuMs } from '../../indexer/parse/cpu-deadline.js';
import { InlineChunker } from '../../indexer/parse/inline-chunk.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { INDEX_FILES } from '../../src/index/format.js';
import { projectRoot } from '../../src/project-root.js';
import { tempDir } from '../helpers/index-fixture.js';

/**
 * What is indexed does not depend on how busy the machine is: the parse limit counts the parser's
 * CPU time. The corpus is Material for MkDocs' docs (96 pages, 1 MB, in ../shared/corpora beside the
 * checkout, read in place; CI has it, a checkout without it skips these): smaller than
 * Argo CD's (455 pages) so that a build at a fifth of a core stays short, and it holds a 105 KB
 * changelog, the kind of long legitimate page a wall-clock limit dropped under load. The limit is
 * set to a few times the CPU time of its slowest pages, measured here, and the load (busy-loop
 * processes, four per core) leaves the parser about a fifth of a core: a wall-clock limit ran out
 * on the changelog under it, a CPU-time limit does not.
 */

const CORPUS = join(projectRoot(), '..', 'shared', 'corpora', 'mkdocs-material');
if (process.env.CI === 'true' && !existsSync(CORPUS))
  throw new Error(`${CORPUS} is missing: CI clones ../shared beside the checkout, and the busy-machine tests need it`);

/** The limit, in multiples of the slowest page's CPU time when parsed warm on this thread. */
const LIMIT_OVER_SLOWEST = 3;

let embedder: Embedder;
let corpusFiles: CorpusFile[];
let limitMs: number;
let busy: ChildProcess[] = [];
/** Processes that spin on every core, four per core, until stopped. */
function saturateCores(): void {
  for (let i = 0; i < 4 * availableParallelism(); i++)
    busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}
afterEach(async () => {
  for (const child of busy) child.kill('SIGKILL');
  busy = [];
  await closeIdleChunker();
});

/** The largest pages' parse, in CPU ms on this thread, after the parser has warmed up on them. */
function slowestParseMs(files: CorpusFile[]): number {
  const largest = [...files].sort((a, b) => b.source.length - a.source.length).slice(0, 5);
  for (const file of largest) chunkFile(file, DEFAULT_CHUNK_OPTIONS);
  return Math.max(
    ...largest.map((file) => {
      const before = ownCpuMs()!;
      chunkFile(file, DEFAULT_CHUNK_OPTIONS);
      return ownCpuMs()! - before;
    }),
  );
}

async function build(): Promise<{ skipped: string[]; plainText: string[]; sections: Buffer; postings: Buffer }> {
  // Each build starts its own parser worker, cold, as a one-shot `svc-docs index` does.
  await closeIdleChunker();
  const outDir = tempDir('busy-index');
  const summary = await buildIndex({
    corpusDirs: [CORPUS],
    outDir,
    vectorCacheDir: tempDir('busy-vectors'),
    embedder,
    limits: { parseTimeoutMs: limitMs },
  });
  const file = (name: string) => readFileSync(join(summary.buildDir, name));
  return {
    skipped: summary.skipped,
    plainText: summary.plainText,
    sections: file(INDEX_FILES.sections),
    postings: file(INDEX_FILES.lexical),
  };
}

describe.skipIf(!existsSync(CORPUS))('a busy machine', () => {
  beforeAll(async () => {
    embedder = await loadEmbedder();
    corpusFiles = loadCorpus([CORPUS]).map((doc) => ({ path: doc.path, source: doc.source }));
    limitMs = LIMIT_OVER_SLOWEST * slowestParseMs(corpusFiles);
  });
  afterAll(async () => {
    await embedder?.dispose();
  });

  it('does not change what a build indexes: the same sections.bin and postings.bin as on an idle one', async () => {
    const idle = await build();
    saturateCores();
    const loaded = await build();
    expect(loaded.skipped).toEqual([]);
    expect(idle.skipped).toEqual([]);
    // A parse over the limit would be indexed as plain text: none is.
    expect([...loaded.plainText, ...idle.plainText]).toEqual([]);
    expect(loaded.sections.equals(idle.sections)).toBe(true);
    expect(loaded.postings.equals(idle.postings)).toBe(true);
  }, 300_000);

  it('does not make the calling-thread parser leave a page out: the watchdog it stopped goes to the worker', async () => {
    const changelog = corpusFiles.find((file) => file.path === 'changelog/index.md')!;
    const expected = chunkFile(changelog, DEFAULT_CHUNK_OPTIONS);
    const worker = new BoundedChunker(limitMs);
    try {
      saturateCores();
      const outcome = await new InlineChunker(limitMs, () => worker).chunk(changelog, DEFAULT_CHUNK_OPTIONS);
      expect(outcome).toEqual({ ok: true, doc: expected });
    } finally {
      await worker.close();
    }
  }, 120_000);
});
