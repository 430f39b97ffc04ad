import { availableParallelism } from 'node:os';
import { BoundedChunker, type Chunker, type ChunkOutcome } from './bounded-chunk.js';
import type { ChunkOptions } from '../chunk/chunk.js';
import type { CorpusFile } from './chunk-file.js';

/**
 * Parsing is most of a build's CPU (Argo CD: 66-72 % in one worker, the main thread idle most of
 * the build), so a large build parses on several workers at once. Each BoundedChunker still takes
 * one document at a time, so its CPU-time limit counts that document alone; a document waits for
 * the first free worker. What a document parses to does not depend on which worker parsed it, and
 * callers put the outcomes in corpus order, so the index is the same for any number of workers.
 */

/** Parse workers for a build: one per core the process may use. */
export function defaultParseWorkers(): number {
  return availableParallelism();
}

export class ChunkerPool implements Chunker {
  private readonly free: BoundedChunker[];
  private readonly waiting: ((chunker: BoundedChunker) => void)[] = [];
  private readonly all: BoundedChunker[];

  constructor(timeoutMs: number, workers: number, first?: BoundedChunker) {
    if (!Number.isInteger(workers) || workers < 1)
      throw new RangeError(`parse workers must be a whole number of at least 1, got ${workers}`);
    this.all = Array.from({ length: workers }, (_, i) =>
      i === 0 && first !== undefined ? first : new BoundedChunker(timeoutMs),
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
    const chunker = this.free.pop() ?? (await new Promise<BoundedChunker>((resolve) => this.waiting.push(resolve)));
    try {
      return await chunker.chunk(file, options);
    } finally {
      const next = this.waiting.shift();
      if (next) next(chunker);
      else this.free.push(chunker);
    }
  }

  /** Ends every worker but the first, which is handed back to be kept for the next build (bounded-chunk.ts). */
  release(): BoundedChunker {
    const [first, ...rest] = this.all;
    for (const c of rest) void c.close();
    return first!;
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((c) => c.close()));
  }
}
