import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { tempDir } from './index-fixture.js';
import { connectClient } from './mcp-client.js';
import { type ServeChild, startServeChild } from '../../bench/lib/serve-child.js';
import { logEntries } from './serve-log.js';
import { namedResults } from './search-text.js';

/**
 * The real command line, spawned as users run it (output, exit codes, serve's lifecycle), for the
 * test/cli/cli-*.test.ts files, one per command. Each file calls `afterAll(killChildren)`.
 */

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment without the user's SVC_DOCS_* settings, in `cache` (default: the tests' own
 * cache folder, never the checkout's, where the user's records are), plus `extra`.
 */
export function cliEnv(extra: Record<string, string> = {}, cache = inject('testCacheDir')): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_') && k !== 'NODE_OPTIONS'),
  );
  return { ...env, SVC_DOCS_CACHE_DIR: cache, ...extra };
}

const children: ChildProcess[] = [];

/** Kills every CLI process a test file spawned and left running. */
export function killChildren(): void {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The CLI from source through tsx (as `npm run svc-docs` runs it). */
export const FROM_SOURCE = ['--import', 'tsx', 'src/cli.ts'];

/** The CLI as `npm start` runs it, transpiled once per test run (test/global-setup.ts): what tests spawn by default. */
export function transpiledCli(): string[] {
  return [inject('transpiledCli')];
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, entry = transpiledCli()): ChildProcess {
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: projectRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

/** Output so far and the exit, with a bounded wait: a process that hangs fails the test. */
export function finished(child: ChildProcess, timeoutMs = 60_000): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-docs did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function run(args: string[], env: NodeJS.ProcessEnv = cliEnv()): Promise<Finished> {
  return finished(spawnCli(args, env));
}

/**
 * A user's mistake: exactly one line on stderr, starting with svc-docs:, non-zero exit; nothing on
 * stdout, or for `serve`, which had begun its log, JSON entries ending with the failed start.
 */
export function expectOneLineError(result: Finished, pattern: RegExp, logged = false): void {
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-docs: /);
  expect(lines[0]).toMatch(pattern);
  if (!logged) expect(result.stdout).toBe('');
  else {
    const log = logEntries(result.stdout);
    expect(log[0]!.event).toBe('start');
    expect(log.at(-1)).toMatchObject({ level: 'error', event: 'start-failed', error: expect.stringMatching(pattern) });
  }
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
}

/**
 * A CLI run that records the URL of every module its main thread loads
 * (test/cli/record-loaded-modules.mjs): `entry` and `env` (to add) to spawn it with, `loaded()` after its exit.
 */
export function recordedModules(): { entry: string[]; env: Record<string, string>; loaded: () => string[] } {
  const file = join(tempDir('cli-modules'), 'loaded.txt');
  const hook = join(projectRoot(), 'test', 'cli', 'record-loaded-modules.mjs');
  return {
    entry: ['--import', hook, ...FROM_SOURCE],
    env: { LOADED_MODULES_FILE: file },
    loaded: () => readFileSync(file, 'utf8').split('\n'),
  };
}

/** Polls `done` until it holds, failing with `context()` after `timeoutMs`. */
export async function waitFor(
  done: () => boolean | Promise<boolean>,
  timeoutMs: number,
  context: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; output so far:\n${context()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `svc-docs serve <args>` transpiled (or `entry`), serving: the one server starter of tests and
 * benchmark (bench/lib/serve-child.ts), its log kept, killed with the file's other children.
 */
export function startServe(args: string[], env: NodeJS.ProcessEnv, entry = transpiledCli()): Promise<ServeChild> {
  return startServeChild({
    entry,
    args,
    env,
    cwd: projectRoot(),
    keepStdout: true,
    stopGraceMs: 120_000,
    onSpawn: (child) => children.push(child),
  });
}

/** The pages SearchDocs returns for `term`, through the real MCP client; the session is ended. */
export async function searchPaths(url: string, term: string): Promise<string[]> {
  const { client, transport, close } = await connectClient(url);
  try {
    const result = (await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: term } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    // SearchDocs sends text only by default: each result names its Source and Path.
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    await transport.terminateSession();
    return namedResults(text).map((r) => `${r.source}/${r.path}`);
  } finally {
    await close();
  }
}
