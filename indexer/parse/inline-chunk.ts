import { createContext, Script } from 'node:vm';
import type { ChunkOutcome, Chunker } from './bounded-chunk.js';
import type { ChunkOptions } from '../chunk/chunk.js';
import { chunkErrorText, chunkFile, type CorpusFile, prepareFile } from './chunk-file.js';
import { ownCpuMs } from './cpu-deadline.js';

/**
 * node:vm's watchdog counts wall time, the parse limit CPU time (cpu-deadline.ts). A parse stopped
 * by the watchdog that had the core for at least this share of the time counts as over the limit;
 * one that had it for less was slowed by other work, and is parsed again on the worker, which
 * counts CPU time. (So a page taking 90-100 % of the limit is left out here and kept there: no
 * page that parses in seconds is near a limit of tens.)
 */
const CPU_SHARE_OVER = 0.9;

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
 * Two differences from the worker: the limit is decided to within CPU_SHARE_OVER, and this
 * thread's stack is smaller (about 1 MB against the worker's 4 MB), so Markdown nested thousands
 * of levels deep overflows it sooner and is indexed as plain text where the worker would have
 * parsed it or run into the time limit. Written documents are nowhere near that deep.
 */
export class InlineChunker implements Chunker {
  private readonly context = createContext({ run: undefined as (() => unknown) | undefined });
  private readonly script = new Script('run()');

  /** `onWorker` is the worker that parses a document again when the watchdog stopped it only because the machine was busy. */
  constructor(
    public timeoutMs: number,
    private readonly onWorker: () => Chunker,
  ) {}

  async chunk(file: CorpusFile, options: ChunkOptions): Promise<ChunkOutcome> {
    // Loading a format's converter is not the file's parse: before the time limit starts.
    await prepareFile(file.path);
    this.context.run = () => chunkFile(file, options);
    const cpuBefore = ownCpuMs();
    try {
      const doc = this.script.runInContext(this.context, { timeout: vmTimeout(this.timeoutMs) }) as ReturnType<
        typeof chunkFile
      >;
      return { ok: true, doc };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        if (slowedByOthers(cpuBefore, this.timeoutMs)) return this.onWorker().chunk(file, options);
        return { ok: false, reason: 'timeout' };
      }
      return { ok: false, reason: 'error', error: chunkErrorText(error) };
    } finally {
      this.context.run = undefined;
    }
  }
}

/** Whether a parse the watchdog stopped at `limitMs` of wall time had less than CPU_SHARE_OVER of it on the CPU (unknown: no). */
function slowedByOthers(cpuBefore: number | undefined, limitMs: number): boolean {
  const cpuAfter = ownCpuMs();
  if (cpuBefore === undefined || cpuAfter === undefined) return false;
  return cpuAfter - cpuBefore < limitMs * CPU_SHARE_OVER;
}

/** node:vm takes a whole number of milliseconds from 1 to 2^32 - 1 (a limit set in seconds may be fractional or huge). */
function vmTimeout(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms)), 2 ** 32 - 1);
}
