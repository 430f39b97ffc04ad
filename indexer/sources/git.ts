import { spawn } from 'node:child_process';
import { SvcDocsError } from '../../src/errors.js';

/**
 * Running the `git` binary: always with an argument array (never through a shell), a time limit,
 * and no terminal. git runs in a session of its own (detached), so it has no controlling terminal
 * to prompt on: a private repository without credentials fails at once ("could not read
 * Username") instead of waiting for a password nobody types, in a server as in a terminal; and a
 * command over its time is killed with its whole process group (ssh, remote helpers). Credentials
 * come from git's own configuration (credential helpers, the ssh agent, ~/.git-credentials); none
 * is ever on the command line, and git's words are passed on with any `user:password@` hidden.
 */

export type SourceReason =
  | 'git-missing'
  | 'timeout'
  | 'unreachable'
  | 'branch-not-found'
  | 'empty-repository'
  | 'subfolder-not-found'
  | 'locked'
  | 'not-fetched'
  | 'too-large'
  | 'git-failed';

/** A git corpus that cannot be fetched or read; one line, naming the repository without credentials. */
export class SourceError extends SvcDocsError<'corpus_unavailable'> {
  override name = 'SourceError';
  constructor(
    message: string,
    /** Which way it failed. */
    readonly reason: SourceReason,
  ) {
    super('corpus_unavailable', message);
  }
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Its output passed MAX_OUTPUT_CHARS and was cut there. */
  truncated: boolean;
}

export interface GitRun {
  timeoutMs: number;
  cwd?: string;
  /** Checked every GUARD_EVERY_MS while git runs: an error stops git and is the run's (a fetch past its size cap). */
  guard?: () => SourceError | undefined;
}

const GUARD_EVERY_MS = 200;

const MAX_OUTPUT_CHARS = 16 * 1024 * 1024;

function collect(stream: NodeJS.ReadableStream, into: { text: string; truncated: boolean }): void {
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    if (into.text.length < MAX_OUTPUT_CHARS) into.text += chunk;
    else into.truncated = true;
  });
}

function killGroup(pid: number | undefined): void {
  try {
    process.kill(-pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Runs `git <args>` (in `cwd`: a bare repository there is the one it works on); resolves with its exit code (a failure is the caller's to name), rejects when git cannot run or runs too long. */
export function runGit(args: string[], run: GitRun): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: run.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { text: '', truncated: false };
    const err = { text: '', truncated: false };
    collect(child.stdout, out);
    collect(child.stderr, err);
    let timedOut = false;
    let stopped: SourceError | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, run.timeoutMs);
    const guard = run.guard;
    const watch = guard
      ? setInterval(() => {
          stopped ??= guard();
          if (stopped) killGroup(child.pid);
        }, GUARD_EVERY_MS)
      : undefined;
    const settled = () => (clearTimeout(timer), clearInterval(watch));
    child.once('error', (error: NodeJS.ErrnoException) => {
      settled();
      reject(
        error.code === 'ENOENT'
          ? new SourceError('git is not installed (or not on PATH): install git to index a git+… corpus', 'git-missing')
          : new SourceError(`git could not run: ${error.code ?? error.message}`, 'git-failed'),
      );
    });
    child.once('close', (code) => {
      settled();
      if (stopped) return reject(stopped);
      if (timedOut)
        return reject(
          new SourceError(
            `git ${args.find((a) => /^[a-z][a-z-]*$/.test(a))} took over ${run.timeoutMs / 1000} s and was stopped (SVC_DOCS_GIT_TIMEOUT_SECONDS)`,
            'timeout',
          ),
        );
      resolve({ stdout: out.text, stderr: err.text, exitCode: code ?? 1, truncated: out.truncated });
    });
  });
}

/** Git's last words on stderr, on one line, any `//user:password@` hidden: what to show a user after a failure. */
export function gitSays(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('warning:') && !l.startsWith('hint:'));
  const said = lines.find((l) => l.startsWith('fatal:') || l.startsWith('error:')) ?? lines.at(-1) ?? 'no message';
  return said
    .replace(/\/\/[^/\s@]+@/g, '//***@')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .slice(0, 300);
}
