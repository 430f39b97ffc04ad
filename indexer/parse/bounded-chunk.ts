import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../src/worker-entry.js';
import type { ChunkedDocument, ChunkOptions } from '../chunk/chunk.js';
import type { CorpusFile } from './chunk-file.js';
import type { ChunkRequest } from './chunk-worker.js';
import { cpuDeadline, workerCpuClock } from './cpu-deadline.js';

/**
 * Chunks documents on a worker thread with a limit on each document's parse, counted in the
 * worker's own CPU time (cpu-deadline.ts), so that a busy machine does not decide what is
 * indexed. Markdown parsing is super-linear on hostile input (100 KB of nested brackets: 27 s),
 * and a synchronous parse cannot be interrupted from its own thread; a worker can be terminated
 * mid-parse. One worker serves a whole build and is replaced after a timeout.
 */

export type ChunkOutcome =
  | { ok: true; doc: ChunkedDocument }
  /** `timeout`: over the limit (CPU time); `error`: the parser threw (e.g. stack overflow on deep nesting). */
  | { ok: false; reason: 'timeout' | 'error'; error?: string };

/** Chunks one document at a time within `timeoutMs` of CPU time per document: on the worker, or on the calling thread (inline-chunk.ts). */
export interface Chunker {
  timeoutMs: number;
  chunk(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome>;
}

type Reply = { id: number; ok: true; doc: ChunkedDocument } | { id: number; ok: false; error: string };

/**
 * The parser's heap, MB: its memory is bounded like its time. Hostile AsciiDoc took 2.6 GB and
 * HTML 1.2 GB to parse (issue 40); a document over it ends the worker and is left out (a
 * Markdown one is indexed as plain text), and the next document gets a new worker.
 */
export const PARSE_HEAP_MB = 512;

const OVER_HEAP = "over the parser's memory limit";
const WORKER_EXITED = 'WorkerExited';

/** Why a worker stopped, as the skip line says it. */
function stoppedBy(error: Error & { code?: string }, heapMb: number): string {
  return error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `${OVER_HEAP} of ${heapMb} MB` : error.name;
}

/**
 * The document may have run its worker out of heap: said so, or the worker was found gone before
 * its error arrived (the CPU-time watch reads a dead worker's clock first).
 */
export function outOfHeap(outcome: ChunkOutcome): boolean {
  if (outcome.ok || outcome.reason !== 'error') return false;
  return outcome.error === WORKER_EXITED || outcome.error?.startsWith(OVER_HEAP) === true;
}

export class BoundedChunker implements Chunker {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private nextId = 0;

  constructor(
    public timeoutMs: number,
    readonly heapMb = PARSE_HEAP_MB,
  ) {}

  /** Starts the worker now, so that loading the parser overlaps whatever the caller does before its first document. */
  warm(): void {
    // A worker that fails to load fails the first chunk() instead.
    this.start().ready.catch(() => {});
  }

  async chunk(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    const { thread: worker, ready } = this.start();
    // Loading the parser is not the document's time.
    await ready;
    const id = this.nextId++;
    return new Promise((resolve) => {
      let settled = false;
      let stopDeadline = () => {};
      const finish = (outcome: ChunkOutcome) => {
        settled = true;
        stopDeadline();
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(outcome);
      };
      const end = (outcome: ChunkOutcome) => {
        this.discard(worker);
        finish(outcome);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        finish(reply.ok ? { ok: true, doc: reply.doc } : { ok: false, reason: 'error', error: reply.error });
      };
      // A worker that dies (out of memory, say) fails this document only; the next one gets a new worker.
      const onError = (error: Error) => end({ ok: false, reason: 'error', error: stoppedBy(error, this.heapMb) });
      const gone = () => end({ ok: false, reason: 'error', error: WORKER_EXITED });
      worker.on('message', onMessage);
      worker.on('error', onError);
      cpuDeadline(workerCpuClock(worker), this.timeoutMs, () => end({ ok: false, reason: 'timeout' }), gone).then(
        (stop) => {
          stopDeadline = stop;
          // The worker died before its clock was read.
          if (settled) stop();
          else worker.postMessage({ id, file, options } satisfies ChunkRequest);
        },
        gone,
      );
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.thread.terminate();
  }

  private start(): { thread: Worker; ready: Promise<void> } {
    if (this.worker === undefined) {
      const { url, execArgv } = workerEntry('chunk-worker', import.meta.url);
      const thread = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
      // An idle worker must not keep the process alive; close() ends it when the build is done.
      thread.unref();
      const ready = new Promise<void>((resolve, reject) => {
        thread.once('message', () => resolve());
        thread.once('error', reject);
      });
      this.worker = { thread, ready };
    }
    return this.worker;
  }

  private discard(worker: Worker): void {
    if (this.worker?.thread === worker) this.worker = undefined;
    void worker.terminate();
  }
}

/**
 * Starting the worker (loading the Markdown parser into a new thread) costs 0.2 s compiled and
 * 0.7 s under tsx: more than the rest of a one-file reindex. A finished build hands its chunker
 * back, and the next build in this process (`serve --watch`'s kept reindexer, a benchmark, a test
 * suite, bench/quality/tune.ts) takes it for IDLE_MS; then the worker is ended. Each build has a chunker
 * of its own while it runs. (Builds start a worker only for a large change set, chunk-corpus.ts.)
 */
const IDLE_MS = 60_000;
let idle: { chunker: BoundedChunker; timer: NodeJS.Timeout } | undefined;

/** The worker a build before this one in the process handed back, if it is still kept. */
export function keptChunker(timeoutMs: number): BoundedChunker | undefined {
  const kept = idle;
  idle = undefined;
  if (kept === undefined) return undefined;
  clearTimeout(kept.timer);
  kept.chunker.timeoutMs = timeoutMs;
  return kept.chunker;
}

export function returnChunker(chunker: BoundedChunker): void {
  if (idle !== undefined) {
    clearTimeout(idle.timer);
    void idle.chunker.close();
  }
  const timer = setTimeout(() => {
    if (idle?.chunker === chunker) idle = undefined;
    void chunker.close();
  }, IDLE_MS);
  // A kept worker (already unref'd) and its timer never keep the process alive.
  timer.unref();
  idle = { chunker, timer };
}

/** Ends the kept worker now (a benchmark measuring a reindex that starts its own, as a one-shot `svc-docs index` does). */
export async function closeIdleChunker(): Promise<void> {
  const kept = idle;
  idle = undefined;
  if (kept === undefined) return;
  clearTimeout(kept.timer);
  await kept.chunker.close();
}
