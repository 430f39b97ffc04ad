import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { inject } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { raw, type RawResponse } from '../helpers/mcp-client.js';

/** Talking to servers and the CLI the way a hostile or broken client would. */

export type HttpAnswer = RawResponse;

/** One HTTP request with any body bytes (invalid UTF-8 included) and full control of the headers. */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<HttpAnswer> {
  return raw(url, { method, headers, body });
}

export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the server closes the connection (or it fails). */
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A TCP connection to write raw HTTP bytes on, malformed ones included. */
export function rawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    socket.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolveClosed) => {
      socket.once('close', () => {
        closed = true;
        resolveClosed();
      });
    });
    // A reset from the server is a close too; the test looks at what arrived before it.
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => Buffer.concat(chunks).toString('latin1'),
        closed: done,
        isClosed: () => closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** Sends raw bytes on a new connection and returns what the server answered before closing it (at most `timeoutMs`). */
export async function rawExchange(port: number, bytes: string | Buffer, timeoutMs = 10_000): Promise<string> {
  const conn = await rawConnection(port);
  conn.socket.write(bytes);
  const timer = setTimeout(() => conn.socket.destroy(), timeoutMs);
  await conn.closed;
  clearTimeout(timer);
  return conn.received();
}

export function statusLine(response: string): string {
  return response.split('\r\n')[0] ?? '';
}

/** Polls `check` every 50 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI's entry as this run transpiled it (test/global-setup.ts): what the reliability tests spawn. */
export const cliEntry = (): string => inject('transpiledCli');

/** The environment for a CLI child: this one, minus svc-docs settings a developer may have exported. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('SVC_DOCS_')) env[key] = value;
  if (process.env.SVC_DOCS_CACHE_DIR !== undefined) env.SVC_DOCS_CACHE_DIR = process.env.SVC_DOCS_CACHE_DIR;
  return { ...env, ...extra };
}

/**
 * Runs `svc-docs <args>` (the run's transpiled CLI, test/global-setup.ts) to completion, killing it
 * after `timeoutMs`. `command` wraps the node invocation (e.g. prlimit) when given; `onSpawn` is
 * told the child's pid (to read its memory from /proc while it runs).
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    timeoutMs?: number;
    command?: string[];
    onSpawn?: (pid: number) => void;
  } = {},
): Promise<CliRun> {
  const argv = [...(options.command ?? []), process.execPath, cliEntry(), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: projectRoot(),
      env: cliEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs at most `n` of the functions given to it at once (spawned CLIs on a small shared machine). */
export function limited(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Lines of output, without the blank ones. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
