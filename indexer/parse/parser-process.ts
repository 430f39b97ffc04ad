import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { workerEntry } from '../../src/worker-entry.js';
import { formatOf } from '../formats/supported.js';
import type { PrepareRequest } from './chunk-worker.js';
import { processCpuClock, type ThreadClock } from './cpu-deadline.js';

/**
 * The parser runs in a child process of its own, not a worker thread: a worker that reaches its
 * heap limit is ended with ERR_WORKER_OUT_OF_MEMORY only when V8 can finish the allocation at
 * hand within a small allowance, and otherwise aborts the whole process ("FATAL ERROR: Reached
 * heap limit", nodejs/node#47224). A hostile corpus did that with 192 MB workers: the build
 * ended on SIGABRT. A child that runs out of memory takes only itself, and the document it was
 * parsing, down; and its memory goes back to the system when it ends.
 */

/**
 * V8's stack limit in the worker threads the parser ran on (Node's default 4 MB thread stack
 * less its 192 KB reserve), in KB: a process's main thread gets 984 KB, on which Markdown
 * nested some thousands deep overflowed and was indexed as plain text where the worker parsed it.
 * A main thread's stack grows up to `ulimit -s` (8 MB by default on Linux).
 */
const STACK_KB = 4096 - 192;

/**
 * The young generation's semi-spaces, MB. V8's default lets them grow to 64 MB each (192 MB of
 * young generation beside the old generation's limit): parser processes of 256 MB of heap reached
 * 400-460 MB of RSS on the hostile corpus (bench/lib/hostile-corpus.ts), 330-390 MB at 16 MB.
 * At 8 MB the Argo CD build took 9-15 % more CPU than on worker threads; at 16 MB, as much.
 */
const SEMI_SPACE_MB = 16;

/** What stderr of a parser process is kept, to tell why it ended: its last characters. */
const STDERR_TAIL = 4096;

export const OVER_HEAP = "over the parser's memory limit";
export const PARSER_EXITED = 'ParserExited';

export class ParserProcess {
  readonly child: ChildProcess;
  /** Resolves once the parser is loaded (its first message); rejects if it ends before. */
  readonly ready: Promise<void>;
  /** Resolves once the process has ended, to why, as a skip line says it. */
  readonly ended: Promise<string>;
  private stderr = '';
  private readonly onEnd = new Set<(why: string) => void>();
  private endedWhy: string | undefined;
  private holds = 0;
  /** The converters loaded or loading here, by format (prepare). */
  private readonly converters = new Map<string, Promise<void>>();

  constructor(readonly heapMb: number) {
    const { url, execArgv } = workerEntry('chunk-worker', import.meta.url);
    this.child = fork(fileURLToPath(url), [], {
      execArgv: [
        ...(execArgv ?? process.execArgv),
        `--max-old-space-size=${heapMb}`,
        `--max-semi-space-size=${SEMI_SPACE_MB}`,
        `--stack-size=${STACK_KB}`,
      ],
      serialization: 'advanced',
      // A parser's fatal out-of-memory report (a page of GC trace) is kept to be read, not printed.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // An idle parser must not keep the build's process alive; close() ends it when the build is done.
    this.setRef(false);
    (this.child.stderr as Socket | null)?.unref();
    this.ended = new Promise((resolve) => {
      this.child.once('close', (code, signal) => resolve(this.why(code, signal)));
      // Not started at all (no such executable, no process left): no 'close' follows.
      this.child.once('error', (error) => {
        if (this.child.pid === undefined) resolve(error.name);
      });
    });
    void this.ended.then((why) => {
      this.endedWhy = why;
      for (const listener of this.onEnd) listener(why);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.once('message', () => resolve());
      void this.ended.then((why) =>
        reject(new Error(`the parser process ended before it loaded: ${why} ${this.lastError()}`)),
      );
    });
  }

  /** Keeps the indexer's process alive while a document is loading or parsing here (an idle parser never does): call the function returned once done. */
  hold(): () => void {
    if (this.holds++ === 0) this.setRef(true);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holds === 0) this.setRef(false);
    };
  }

  private setRef(on: boolean): void {
    if (on) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  /**
   * Loads the converter of `path`'s format here, once per process, outside any document's time
   * limit: Asciidoctor.js took 0.7-1.1 s of CPU to import (tsx, load 2-12), charged to the first
   * AsciiDoc page of each parser when loaded on its clock, so a page of 1.3-2 s fitted a 2 s
   * limit on one parser and not on another (issue 40: the hostile corpus's attributes.adoc in
   * a busy build and not in an idle one). Resolves once loaded, or once the process has ended.
   */
  prepare(path: string): Promise<void> {
    const format = formatOf(path) ?? 'markdown';
    if (format === 'markdown') return Promise.resolve();
    let loading = this.converters.get(format);
    if (loading === undefined) {
      loading = new Promise<void>((resolve) => {
        const done = () => {
          this.child.off('message', onMessage);
          stopWatch();
          resolve();
        };
        const onMessage = (reply: { prepared?: unknown }) => {
          if (reply.prepared === path) done();
        };
        this.child.on('message', onMessage);
        const stopWatch = this.whenEnded(done);
        this.child.send({ prepare: path } satisfies PrepareRequest, (error) => error && done());
      });
      this.converters.set(format, loading);
    }
    return loading;
  }

  /** Calls `listener` with why once the process has ended, unless the function returned is called first. */
  whenEnded(listener: (why: string) => void): () => void {
    const why = this.endedWhy;
    if (why !== undefined) {
      let on = true;
      queueMicrotask(() => on && listener(why));
      return () => (on = false);
    }
    this.onEnd.add(listener);
    return () => this.onEnd.delete(listener);
  }

  /** The process's CPU time, read from outside it while it parses. */
  cpuClock(): ThreadClock {
    return processCpuClock(this.child.pid ?? -1);
  }

  /** Ends the process (if it has not ended) and resolves once it has. */
  async kill(): Promise<void> {
    if (this.endedWhy !== undefined) return;
    const release = this.hold();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.ended;
    release();
  }

  /**
   * V8 aborts a process out of heap after printing "JavaScript heap out of memory". Any other end
   * is named by its signal or exit code only: stderr may quote the document being parsed.
   */
  private why(code: number | null, signal: NodeJS.Signals | null): string {
    if (/heap out of memory|Allocation failed/.test(this.stderr)) return `${OVER_HEAP} of ${this.heapMb} MB`;
    return `${PARSER_EXITED} (${signal ?? `exit code ${code ?? '?'}`})`;
  }

  /** The last line the process wrote to stderr, printable and short: why it failed to start (no document was sent yet). */
  lastError(): string {
    const last = this.stderr.trim().split('\n').at(-1) ?? '';
    return last.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 200);
  }
}
