import type { ChunkedDocument, ChunkOptions } from '../chunk/chunk.js';
import type { CorpusFile } from './chunk-file.js';
import type { ChunkRequest } from './chunk-worker.js';
import { cpuDeadline } from './cpu-deadline.js';
import { OVER_HEAP, PARSER_EXITED, ParserProcess } from './parser-process.js';

/**
 * Chunks documents on a parser process (parser-process.ts; "the worker" below) with a limit on
 * each document's parse, counted in the parser's own CPU time (cpu-deadline.ts), so that a busy
 * machine does not decide what is indexed. Markdown parsing is super-linear on hostile input
 * (100 KB of nested brackets: 27 s), and a synchronous parse cannot be interrupted from its own
 * thread; a process can be ended mid-parse. One worker serves a whole build and is replaced after
 * a timeout, or after it ran out of memory.
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
 * Markdown one is indexed as plain text), and the next document gets a new worker. A parser
 * process's RSS is its heap and ~150 MB more (tsx): at 512 MB, one beside the indexer's 300-450
 * MB made 1,069 MB on the hostile corpus. The largest real pages (PostgreSQL's 434 KB
 * bookindex.html, Hugo's emojis.md, Babel's types.md) parse within 96 MB.
 */
export const PARSE_HEAP_MB = 384;

/** The document may have run its worker out of heap: said so, or the worker ended some other way while parsing it. */
export function outOfHeap(outcome: ChunkOutcome): boolean {
  if (outcome.ok || outcome.reason !== 'error') return false;
  return outcome.error?.startsWith(PARSER_EXITED) === true || outcome.error?.startsWith(OVER_HEAP) === true;
}

export class BoundedChunker implements Chunker {
  private worker: ParserProcess | undefined;
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
    const worker = this.start();
    const release = worker.hold();
    try {
      // Loading the parser, or the converter of the document's format, is not the document's time.
      await worker.ready;
      await worker.prepare(file.path);
      return await this.parse(worker, file, options);
    } finally {
      release();
    }
  }

  private parse(worker: ParserProcess, file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      let settled = false;
      let stopDeadline = () => {};
      let stopWatch = () => {};
      const finish = (outcome: ChunkOutcome) => {
        if (settled) return;
        settled = true;
        stopDeadline();
        stopWatch();
        worker.child.off('message', onMessage);
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
      const died = (why: string) => end({ ok: false, reason: 'error', error: why });
      stopWatch = worker.whenEnded(died);
      // Its clock unreadable: it is gone, or going (`died` says why once it has).
      const gone = () => void worker.kill();
      worker.child.on('message', onMessage);
      cpuDeadline(worker.cpuClock(), this.timeoutMs, () => end({ ok: false, reason: 'timeout' }), gone).then((stop) => {
        stopDeadline = stop;
        // The worker died before its clock was read.
        if (settled) stop();
        else worker.child.send({ id, file, options } satisfies ChunkRequest, (error) => error && gone());
      }, gone);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.kill();
  }

  private start(): ParserProcess {
    if (this.worker === undefined) {
      const worker = new ParserProcess(this.heapMb);
      // One that ends between documents is replaced by the next one's.
      void worker.ended.then(() => {
        if (this.worker === worker) this.worker = undefined;
      });
      this.worker = worker;
    }
    return this.worker;
  }

  private discard(worker: ParserProcess): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.kill();
  }
}

/**
 * Starting the worker (a process loading the Markdown parser) costs 0.2 s compiled and
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
