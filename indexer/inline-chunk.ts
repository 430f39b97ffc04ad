import { createContext, Script } from 'node:vm';
import type { ChunkOutcome, Chunker } from './bounded-chunk.js';
import type { ChunkOptions } from './chunk.js';
import { chunkFile, type CorpusFile } from './chunk-file.js';

/**
 * Chunks documents on the calling thread, each parse stopped at the time limit by node:vm's
 * watchdog, which terminates whatever JavaScript this thread runs when the limit passes (the
 * parser called from the script included), as Worker.terminate does on the worker.
 *
 * For a small change set: starting the parser worker (a thread loading the parser: 0.2 s
 * compiled, 0.7 s under tsx) costs more than parsing a few files. Blocking this thread is
 * harmless there: `svc-docs index` is a process of its own, and so is the reindexer `serve
 * --watch` keeps (src/serve/reindex-process.ts), which talks to its server between builds only. Each
 * call starts a watchdog thread (about 1 ms), which is why a large change set still goes to the
 * worker.
 *
 * One difference from the worker: this thread's stack is smaller (about 1 MB against the
 * worker's 4 MB), so Markdown nested thousands of levels deep overflows it sooner and is indexed
 * as plain text where the worker would have parsed it or run into the time limit. Written
 * documents are nowhere near that deep.
 */
export class InlineChunker implements Chunker {
  private readonly context = createContext({ run: undefined as (() => unknown) | undefined });
  private readonly script = new Script('run()');

  constructor(public timeoutMs: number) {}

  async chunk(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    this.context.run = () => chunkFile(file, options);
    try {
      const doc = this.script.runInContext(this.context, { timeout: vmTimeout(this.timeoutMs) }) as ReturnType<
        typeof chunkFile
      >;
      return { ok: true, doc };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
        return { ok: false, reason: 'timeout' };
      // Only the error's class, as from the worker: a parser's message may quote the document.
      // (A stack overflow's RangeError may come from the context's realm, so not `instanceof Error`.)
      const name = (error as { name?: unknown } | null)?.name;
      return { ok: false, reason: 'error', error: typeof name === 'string' ? name : 'error' };
    } finally {
      this.context.run = undefined;
    }
  }
}

/** node:vm takes a whole number of milliseconds from 1 to 2^32 - 1 (a limit set in seconds may be fractional or huge). */
function vmTimeout(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms)), 2 ** 32 - 1);
}
