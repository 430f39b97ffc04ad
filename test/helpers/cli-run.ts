import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * Running the real `svc-docs` from source as a user would, for the tests of what a user sees:
 * its output, exit code, and for `serve`, its log until ready. Every run is in a cache folder
 * of the tests (never the checkout's .cache, where the user's records are).
 */

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A new, empty cache folder with the checkout's built model linked in: nothing served or indexed yet. */
export function freshCache(): string {
  const cache = mkdtempSync(join(inject('testTempRoot'), 'cache-'));
  symlinkSync(join(inject('testCacheDir'), 'models'), join(cache, 'models'));
  return cache;
}

/** The environment without the user's SVC_DOCS_* settings, in `cache` (default: the tests'), plus `extra`. */
export function cliEnv(extra: Record<string, string> = {}, cache = inject('testCacheDir')): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_') && k !== 'NODE_OPTIONS'),
  );
  return { ...env, SVC_DOCS_CACHE_DIR: cache, ...extra };
}

/** `svc-docs <args>` from source, started. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): ChildProcess {
  return spawn(node, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: projectRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Output and exit of a child, killed after `timeoutMs` (a command that hangs fails the test). */
export function finished(child: ChildProcess, timeoutMs = 120_000): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-docs did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return finished(spawnCli(args, env));
}

/** Lines of text that are not blank. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/**
 * `svc-docs serve <args>` run until its log says it is ready, then stopped with SIGTERM: what it
 * printed and its exit.
 */
export async function serveUntilReady(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  const child = spawnCli(['serve', '--port', '0', ...args], { ...env, SVC_DOCS_LOG_FORMAT: 'json' });
  const done = finished(child);
  const ready = new Promise<void>((resolve) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('"event":"ready"')) resolve();
    });
  });
  await Promise.race([ready, done]);
  child.kill('SIGTERM');
  return done;
}
