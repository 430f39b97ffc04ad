import { availableParallelism } from 'node:os';
import { BoundedChunker, type Chunker, type ChunkOutcome, outOfHeap, PARSE_HEAP_MB } from './bounded-chunk.js';
import type { ChunkOptions } from '../chunk/chunk.js';
import type { CorpusFile } from './chunk-file.js';

/**
 * Parsing is most of a build's CPU (Argo CD: 66-72 % in one worker, the main thread idle most of
 * the build), so a large build parses on several workers at once. Each BoundedChunker still takes
 * one document at a time, so its CPU-time limit counts that document alone; a document waits for
 * the first free worker. What a document parses to does not depend on which worker parsed it, and
 * callers put the outcomes in corpus order, so the index is the same for any number of workers.
 *
 * Memory (issue 40): N workers of PARSE_HEAP_MB each could hold N times that at once, so the pool's
 * workers share PARSE_POOL_HEAP_MB between them. A document that runs its share out parses again
 * alone, on a worker of the full PARSE_HEAP_MB, once the others have finished theirs and been
 * ended: it is left out only when it needs more than PARSE_HEAP_MB, as on one worker, so the index
 * stays the same for any number of workers, and the parsers never hold more than PARSE_HEAP_MB of heap.
 */

/**
 * The parse workers' heaps together, MB: with the main thread's, a build's RSS stays under 1 GiB.
 * A parser process's RSS is its heap and some 100 MB more (Node, the parser's code, the young
 * generation): two of 256 MB beside the indexer's 280-300 MB made 1,025 MB on the hostile corpus.
 */
export const PARSE_POOL_HEAP_MB = PARSE_HEAP_MB;
/** A worker's share is at least this (an ordinary page needs a few MB): more cores do not add workers past it. */
const MIN_WORKER_HEAP_MB = 64;
const maxWorkers = (poolHeapMb: number) => Math.max(1, Math.floor(poolHeapMb / MIN_WORKER_HEAP_MB));

/** Parse workers for a build: one per core the process may use, at most as many as the heap budget allows. */
export function defaultParseWorkers(): number {
  return Math.min(availableParallelism(), maxWorkers(PARSE_POOL_HEAP_MB));
}

export class ChunkerPool implements Chunker {
  private readonly free: BoundedChunker[];
  private readonly waiting: ((chunker: BoundedChunker) => void)[] = [];
  private readonly all: BoundedChunker[];
  /** Each worker's heap, MB: its share of the budget. */
  readonly heapMb: number;
  /** Documents parsing again alone, one after another. */
  private alone: Promise<unknown> = Promise.resolve();

  /**
   * `poolHeapMb`: the workers' heaps together (a test's smaller budget shows a document parsing
   * again alone); `aloneHeapMb`: the heap a document over its share parses again on.
   */
  constructor(
    timeoutMs: number,
    workers: number,
    first?: BoundedChunker,
    poolHeapMb = PARSE_POOL_HEAP_MB,
    private readonly aloneHeapMb = PARSE_HEAP_MB,
  ) {
    if (!Number.isInteger(workers) || workers < 1)
      throw new RangeError(`parse workers must be a whole number of at least 1, got ${workers}`);
    const count = Math.min(workers, maxWorkers(poolHeapMb));
    this.heapMb = Math.min(aloneHeapMb, Math.floor(poolHeapMb / count));
    // A kept worker of another heap size is ended: every worker of the pool has its share.
    const reuse = first?.heapMb === this.heapMb ? first : (void first?.close(), undefined);
    this.all = Array.from({ length: count }, (_, i) =>
      i === 0 && reuse !== undefined ? reuse : new BoundedChunker(timeoutMs, this.heapMb),
    );
    this.free = [...this.all];
    this.timeoutMs = timeoutMs;
  }

  get size(): number {
    return this.all.length;
  }

  get timeoutMs(): number {
    return this.all[0]!.timeoutMs;
  }

  set timeoutMs(ms: number) {
    for (const c of this.all) c.timeoutMs = ms;
  }

  warm(): void {
    for (const c of this.all) c.warm();
  }

  async chunk(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    const outcome = await this.onWorker((chunker) => chunker.chunk(file, options));
    if (this.heapMb >= this.aloneHeapMb || !outOfHeap(outcome)) return outcome;
    const again = this.alone.then(() => this.parseAlone(file, options));
    this.alone = again.catch(() => {});
    return again;
  }

  private async onWorker<T>(work: (chunker: BoundedChunker) => Promise<T>): Promise<T> {
    const chunker = this.free.pop() ?? (await new Promise<BoundedChunker>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(chunker);
    } finally {
      const next = this.waiting.shift();
      if (next) next(chunker);
      else this.free.push(chunker);
    }
  }

  /**
   * Takes every worker (waiting for the documents they parse), ends their threads so their heaps
   * are freed, and parses `file` on a worker of the full PARSE_HEAP_MB; the pool's workers start
   * again on their next document.
   */
  private async parseAlone(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const taken: Promise<void>[] = [];
    const all = this.all.map(
      () =>
        new Promise<void>((took) =>
          taken.push(this.onWorker(async (chunker) => (await chunker.close(), took(), held))),
        ),
    );
    await Promise.all(all);
    const big = new BoundedChunker(this.timeoutMs, this.aloneHeapMb);
    try {
      return await big.chunk(file, options);
    } finally {
      await big.close();
      release();
      await Promise.all(taken);
    }
  }

  /** Ends every worker but the first, which is handed back to be kept for the next build (bounded-chunk.ts). */
  release(): BoundedChunker {
    const [first, ...rest] = this.all;
    for (const c of rest) void c.close();
    // A build that is given it parses alone on it: only a worker of the full heap is kept.
    if (first!.heapMb === this.aloneHeapMb) return first!;
    void first!.close();
    return new BoundedChunker(this.timeoutMs, this.aloneHeapMb);
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((c) => c.close()));
  }
}
