import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `svc-docs serve` in a child process, resolved once it is serving: the one server starter of the
 * tests (the CLI from source) and the benchmark (the compiled CLI). Ready is the `ready` entry of
 * its log (one JSON object per line on stdout, as a piped server writes it), which names the URL
 * to connect to, so `--port 0` works.
 */

/** How a served child ended: its exit, and what it printed (stdout only when kept). */
export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServeChild {
  /** The MCP URL its `ready` entry names. */
  url: string;
  pid: number;
  /** Milliseconds from spawn to the `ready` entry. */
  readyMs: number;
  /** Its stdout so far (empty unless kept). */
  stdout(): string;
  /** SIGTERM (the server closes its sessions and exits), SIGKILL when it hangs; resolves with the exit. */
  stop(): Promise<ServeExit>;
}

export interface ServeChildOptions {
  /** Node's arguments up to and including the CLI's entry, e.g. `['--import', 'tsx', 'src/cli.ts']`. */
  entry: readonly string[];
  /** The arguments after `serve`. */
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Keep stdout after ready (tests read the log); the benchmark drops its request log. */
  keepStdout?: boolean;
  /** Default 120 s: a first start may build the index. */
  readyTimeoutMs?: number;
  /** How long `stop` waits after SIGTERM before SIGKILL; default 5 s (a test on a loaded machine waits longer). */
  stopGraceMs?: number;
  /** Told of the child as soon as it is spawned (a test file kills what it left running). */
  onSpawn?: (child: ChildProcess) => void;
}

/** The server exited, or was not ready in time, before its `ready` entry: how it ended. */
export class ServeNotReadyError extends Error {
  override name = 'ServeNotReadyError';

  constructor(
    why: string,
    readonly exit: ServeExit,
  ) {
    super(`svc-docs serve ${why}: ${exit.stdout}${exit.stderr}`.trim());
  }
}

/** The MCP URL of the first complete `ready` log line in `stdout`. */
function readyUrl(stdout: string): string | undefined {
  for (const line of stdout.slice(0, stdout.lastIndexOf('\n') + 1).split('\n')) {
    if (!line.includes('"event":"ready"')) continue;
    const entry = JSON.parse(line) as { event?: unknown; url?: unknown };
    if (entry.event === 'ready' && typeof entry.url === 'string') return entry.url;
  }
  return undefined;
}

export async function startServeChild(options: ServeChildOptions): Promise<ServeChild> {
  const started = performance.now();
  const grace = options.stopGraceMs ?? 5000;
  const child = spawn(process.execPath, [...options.entry, 'serve', ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  const output = { stdout: '', stderr: '', keep: true };
  child.stdout!.on('data', (c: Buffer) => {
    if (output.keep) output.stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => (output.stderr += c.toString()));
  const exited = new Promise<ServeExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: output.stdout, stderr: output.stderr }));
  });
  exited.catch(() => undefined);
  const url = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      void stopChild(child, exited, grace).then((exit) =>
        reject(new ServeNotReadyError(`was not ready after ${timeoutMs / 1000} s`, exit)),
      );
    }, timeoutMs);
    child.stdout!.on('data', function onData() {
      const found = readyUrl(output.stdout);
      if (found === undefined) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(found);
    });
    exited.then(
      (exit) => {
        clearTimeout(timer);
        reject(new ServeNotReadyError(`exited with ${exit.code ?? exit.signal} before it was ready`, exit));
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
  const readyMs = performance.now() - started;
  if (!options.keepStdout) output.keep = false;
  return {
    url,
    pid: child.pid!,
    readyMs,
    stdout: () => output.stdout,
    stop: () => stopChild(child, exited, grace),
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
async function stopChild(child: ChildProcess, exited: Promise<ServeExit>, graceMs: number): Promise<ServeExit> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}
