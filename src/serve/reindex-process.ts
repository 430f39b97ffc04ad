import { type ChildProcess, spawn } from 'node:child_process';
import { SvcDocsError } from '../errors.js';
import type { IndexSettings } from '../settings/commands.js';

/**
 * `serve --watch` rebuilds the index in a child process running `svc-docs index`: parsing and
 * embedding a corpus takes seconds of CPU, and in the server's own process it would stall every
 * request for that long. The child writes a new build and switches CURRENT; the server's live
 * reload picks it up as it does for any other `svc-docs index`.
 *
 * The child is kept between edits (`svc-docs index --ipc`: one build per request on the IPC
 * channel). A new process per edit paid for starting Node, importing the indexer and compiling
 * the parser again on every save, about 1.2–1.5 s wall for a one-page edit of the Argo CD corpus
 * where the build itself takes 0.3 s in a process that has built before (bench `--parts=indexing`).
 * Kept for IDLE_MS after its last build, then let go, so an idle server does not hold the
 * indexer's memory; the next edit starts a new one.
 *
 * A reindexer that dies mid-build (killed, out of memory) is replaced and the build tried again
 * after RETRY_DELAYS_MS, so the edit is not lost until the next one; one that keeps dying is
 * given up after the last delay and reported, until the next edit. A build that fails (the
 * corpus cannot be read, say) is not retried: it would fail the same way until something changes.
 */

/**
 * `reindex_died`: the reindexer process ended, or could not start, before answering;
 * `reindex_failed`: it answered that the build failed; `reindex_busy`, `reindex_closed`: not sent.
 */
type ReindexErrorCode = 'reindex_died' | 'reindex_failed' | 'reindex_busy' | 'reindex_closed';

export class ReindexError extends SvcDocsError<ReindexErrorCode> {
  override name = 'ReindexError';

  constructor(message: string, code: ReindexErrorCode) {
    super(code, message);
  }
}

/** The parent's request, and the child's answer to it. */
export type ToReindexer = { type: 'build'; id: number };
export type FromReindexer = { type: 'built'; id: number } | { type: 'failed'; id: number; message: string };

/** How long a kept reindexer waits for the next edit before it is let go. */
const IDLE_MS = 2 * 60_000;
/** How long a reindexer let go (or one asked to stop) may take to exit before it is killed. */
const EXIT_GRACE_MS = 5_000;
/** The pauses before each new try of a build whose reindexer died: 15 s in all, then it is given up until the next edit. */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];

/** The `index` command line that rebuilds what `settings` describe, as a kept reindexer. */
function reindexArguments(settings: IndexSettings): string[] {
  const args = ['index', '--ipc', '--out', settings.indexDir];
  for (const dir of settings.corpusDirs) args.push('--corpus', dir);
  if (settings.model !== undefined) args.push('--model', settings.model);
  if (settings.allowRemoteModels) args.push('--allow-remote-models');
  args.push('--vector-cache', settings.vectorCacheDir);
  return args;
}

interface ReindexerOptions {
  /** The CLI script to run, and Node's flags for it (default: this process's own, so loaders carry over). */
  script?: string;
  execArgv?: string[];
  idleMs?: number;
  retryDelaysMs?: readonly number[];
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  /** The build asked for and not yet answered. */
  pending?: { id: number; resolve: () => void; reject: (error: Error) => void };
}

/**
 * Runs reindexes, one at a time (the caller waits for each), in a `svc-docs index --ipc` child
 * kept between them. A child that dies, or fails to start, fails the build under way; the next
 * build starts a new one. Its output lines go to `log`: the child's stdout as `output`, its stderr
 * and this class's own retries as `warning`.
 */
export class KeptReindexer {
  private running: Running | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;
  /** Ends a pause between tries early (when closed). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly settings: IndexSettings,
    private readonly log: (line: string, kind: 'output' | 'warning') => void,
    private readonly options: ReindexerOptions = {},
  ) {}

  /** The kept child's pid, while there is one. */
  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  /** Builds once, trying again after each of RETRY_DELAYS_MS while the reindexer dies before answering. */
  async rebuild(): Promise<void> {
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    for (let retry = 0; ; retry++) {
      try {
        return await this.buildOnce();
      } catch (error) {
        if (!(error instanceof ReindexError) || error.code !== 'reindex_died' || this.closed) throw error;
        const delay = delays[retry];
        if (delay === undefined) {
          if (retry === 0) throw error;
          throw new ReindexError(
            `the reindex died ${retry + 1} times in a row (last: ${error.message}); it is tried again at the next edit`,
            'reindex_died',
          );
        }
        this.log(
          `${error.message}; trying again in ${delay / 1000} s (retry ${retry + 1} of ${delays.length})`,
          'warning',
        );
        await this.pause(delay);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      this.wake = undefined;
    });
  }

  private buildOnce(): Promise<void> {
    if (this.closed) return Promise.reject(new ReindexError('the reindexer is closed', 'reindex_closed'));
    if (this.running?.pending) return Promise.reject(new ReindexError('a reindex is already running', 'reindex_busy'));
    clearTimeout(this.idleTimer);
    let running: Running;
    try {
      running = this.running ?? this.start();
    } catch (error) {
      return Promise.reject(
        new ReindexError(`could not start the reindex: ${(error as Error).message}`, 'reindex_died'),
      );
    }
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      running.pending = { id, resolve, reject };
      running.child.send({ type: 'build', id } satisfies ToReindexer, (error) => {
        if (error) this.fail(running, `could not reach the reindexer (${error.message})`);
      });
    }).finally(() => {
      if (this.running === running && !this.closed) {
        this.idleTimer = setTimeout(() => void this.letGo(running), this.options.idleMs ?? IDLE_MS);
        this.idleTimer.unref();
      }
    });
  }

  /** Lets the kept child go (waiting for a build under way to be answered first is the caller's business). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.wake?.();
    if (this.running) await this.letGo(this.running);
  }

  private start(): Running {
    const script = this.options.script ?? process.argv[1];
    if (script === undefined) throw new Error('cannot tell which script is running');
    const child = spawn(
      process.execPath,
      [...(this.options.execArgv ?? process.execArgv), script, ...reindexArguments(this.settings)],
      // The child inherits this process's environment, and so reads the same settings.
      { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    const forward = (kind: 'output' | 'warning') => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') this.log(line, kind);
    };
    child.stdout!.on('data', forward('output'));
    child.stderr!.on('data', forward('warning'));
    const running: Running = {
      child,
      exited: new Promise<void>((resolve) => {
        child.once('exit', (code, signal) => {
          if (this.running === running) this.running = undefined;
          this.fail(
            running,
            `the reindex ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}; the previous index keeps serving`,
          );
          resolve();
        });
      }),
    };
    child.once('error', (error) => {
      this.fail(running, `could not start the reindex: ${error.message}`);
      // No process was started: there is nothing to keep.
      if (child.pid === undefined && this.running === running) this.running = undefined;
    });
    child.on('message', (message: FromReindexer) => {
      const pending = running.pending;
      if (!pending || message?.id !== pending.id) return;
      running.pending = undefined;
      if (message.type === 'built') pending.resolve();
      else
        pending.reject(
          new ReindexError(
            `the reindex failed (${message.message}); the previous index keeps serving`,
            'reindex_failed',
          ),
        );
    });
    this.running = running;
    return running;
  }

  private fail(running: Running, reason: string): void {
    const pending = running.pending;
    running.pending = undefined;
    pending?.reject(new ReindexError(reason, 'reindex_died'));
  }

  /** Closes the child's channel (it exits once it sees that), and kills it if it does not exit in time. */
  private async letGo(running: Running): Promise<void> {
    if (this.running === running) this.running = undefined;
    if (running.child.connected) running.child.disconnect();
    const timer = setTimeout(() => running.child.kill('SIGKILL'), EXIT_GRACE_MS);
    timer.unref();
    if (running.child.pid !== undefined) await running.exited;
    clearTimeout(timer);
  }
}
