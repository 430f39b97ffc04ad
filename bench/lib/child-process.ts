import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { SERVER_NODE_OPTIONS } from '../../src/cli/server-heap.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { flagValue } from './flags.js';
import { type ServeChild, startServeChild } from './serve-child.js';

/**
 * The benchmark's child processes: the compiled server (`svc-docs serve`, as users run it) and the
 * probes that must not share a heap with the benchmark (memory at scale, cold start). They run
 * compiled JavaScript, not tsx, so neither start-up time nor memory includes a TypeScript loader.
 */

/** Compiled into a private folder: dist/ belongs to `npm run build`, and may be stale or in use. */
const OUT = () => join(cacheDirOf(process.env), 'bench', 'dist');
let compiled: Promise<string> | undefined;

/** Compiles src/, indexer/ and bench/ once per run; resolves to the output root. */
export function compileOnce(log: (line: string) => void): Promise<string> {
  compiled ??= (async () => {
    const out = OUT();
    const root = projectRoot();
    mkdirSync(out, { recursive: true });
    const config = join(out, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        compilerOptions: {
          noEmit: false,
          outDir: out,
          rootDir: root,
          declaration: false,
          sourceMap: false,
          incremental: false,
        },
        include: ['src', 'indexer', 'bench'].map((d) => join(root, d)),
      }),
    );
    const started = performance.now();
    const { code, stdout } = await run(process.execPath, [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      config,
    ]);
    // tsc still emits on type errors (someone's work in progress); only missing output is fatal.
    if (code !== 0) log(`warning: tsc reported errors, benchmarking what it emitted: ${stdout.split('\n')[0] ?? ''}`);
    if (!existsSync(join(out, 'src', 'cli.js')))
      throw new Error(`compiling for the benchmark produced no ${join(out, 'src', 'cli.js')}: ${stdout.slice(0, 500)}`);
    log(`compiled src/, indexer/, bench/ into ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return out;
  })();
  return compiled;
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/** The environment for children: no SVC_DOCS_* setting of the caller leaks in (a token, a port). */
export function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_') || k === 'SVC_DOCS_CACHE_DIR'),
  );
}

/** A Node child's run: its exit code, stdout, the tail of its stderr, and its time from spawn to exit. */
interface NodeRun {
  code: number;
  stdout: string;
  stderrTail: string;
  seconds: number;
}

/** Runs `node <args>` with the children's environment; `onStderr` sees its stderr as it comes. */
async function runNode(args: string[], onStderr: (text: string) => void = () => {}): Promise<NodeRun> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
  let stdout = '';
  let stderrTail = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    const text = c.toString();
    stderrTail = (stderrTail + text).slice(-4000);
    onStderr(text);
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  return { code, stdout, stderrTail, seconds: (performance.now() - start) / 1000 };
}

/**
 * Runs a compiled script (e.g. `src/cli.js` of compileOnce's output) as users run it, and times it
 * from spawn to exit: process start, imports and exit included. A non-zero exit throws.
 */
export async function timedRun(script: string, args: string[]): Promise<{ seconds: number; stdout: string }> {
  const { code, stdout, stderrTail, seconds } = await runNode([script, ...args]);
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${code}: ${stderrTail}`);
  return { seconds, stdout };
}

export interface ProbeOptions {
  /** V8 heap limit for the child, in MB (large builds). */
  maxOldSpaceMB?: number;
  /** A compiled bench module (`bench/<part>/<name>.js`, e.g. `speed/server-heap-preload`) the child imports before its script. */
  preload?: string;
  log: (line: string) => void;
}

/**
 * Runs a compiled bench script (`bench/<part>/<name>.js`, named `<part>/<name>`) that prints its report as the last line of
 * stdout, and parses that line with `schema`. Its stderr is passed through, prefixed.
 */
export async function runProbe<T>(
  script: string,
  args: string[],
  schema: z.ZodType<T>,
  options: ProbeOptions,
): Promise<T> {
  const out = await compileOnce(options.log);
  const nodeArgs = [
    '--expose-gc',
    ...(options.maxOldSpaceMB ? [`--max-old-space-size=${options.maxOldSpaceMB}`] : []),
    ...(options.preload ? ['--import', pathToFileURL(join(out, 'bench', `${options.preload}.js`)).href] : []),
  ];
  const { code, stdout, stderrTail } = await runNode(
    [...nodeArgs, join(out, 'bench', `${script}.js`), ...args],
    (text) => {
      for (const line of text.split('\n')) if (line.trim() !== '') options.log(`  ${script}: ${line}`);
    },
  );
  if (code !== 0)
    throw new Error(
      `bench/${script} ${args.join(' ')} exited with ${code}: ${stderrTail.trim().split('\n').slice(-5).join(' | ')}`,
    );
  const last = stdout.trim().split('\n').pop() ?? '';
  return schema.parse(JSON.parse(last));
}

export interface ServerSpawnOptions {
  /** Search worker threads (SVC_DOCS_SEARCH_THREADS); the server's default when undefined. */
  searchThreads?: number;
  /** SVC_DOCS_* settings for the server, over the benchmark's own (an empty value unsets one). */
  env?: Record<string, string>;
  /** More `serve` arguments (the soak's `--watch --corpus <dir>`). */
  args?: string[];
}

/**
 * `--search-threads=<n>` on a benchmark's command line: the spawned server's search workers, to
 * compare pool sizes (the server's own default otherwise). The benchmark's SVC_DOCS_* variables
 * never reach the server, so this is the way to set it.
 */
export function searchThreadsFlag(argv: readonly string[] = process.argv): ServerSpawnOptions {
  const raw = flagValue('search-threads', argv);
  if (raw === undefined) return {};
  const searchThreads = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(searchThreads) || searchThreads < 0)
    throw new Error(
      `--search-threads must be a whole number of worker threads (0: search on the main thread), got '${raw}'`,
    );
  return { searchThreads };
}

/**
 * Every benchmark client connects from loopback, one address, which the server's fair shares
 * (docs/security.md) would count as one client: the benchmarks measure the server's capacity for
 * many clients, so that one address gets the whole server.
 */
const ONE_ADDRESS_SHARES = { SVC_DOCS_MAX_SESSIONS_PER_CLIENT: '100000', SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '100000' };

/**
 * `--server-node-options=--min-semi-space-size=16,--max-semi-space-size=16` on a benchmark's
 * command line: the Node options the spawned server runs with instead of SERVER_NODE_OPTIONS
 * (src/cli/server-heap.ts), to choose them by measurement (docs/benchmarks.md, the protocol path).
 */
export function serverNodeOptionsFlag(argv: readonly string[] = process.argv): readonly string[] {
  const raw = flagValue('server-node-options', argv);
  if (raw === undefined) return SERVER_NODE_OPTIONS;
  const options = raw.split(',').filter(Boolean);
  const bad = options.find((o) => !o.startsWith('--'));
  if (bad !== undefined) throw new Error(`--server-node-options takes Node options separated by commas, got '${bad}'`);
  return options;
}

/** `node <compiled>/src/cli.js serve` on a loopback port, as users run it (bench/lib/serve-child.ts, the one starter). */
export async function spawnServer(
  indexDir: string,
  log: (line: string) => void,
  { searchThreads, env = {}, args = [] }: ServerSpawnOptions = {},
): Promise<ServeChild> {
  const out = await compileOnce(log);
  return startServeChild({
    // As the container and npm start run it.
    entry: [...serverNodeOptionsFlag(), join(out, 'src', 'cli.js')],
    args: ['--index', indexDir, '--no-build', '--host', '127.0.0.1', '--port', '0', ...args],
    env: {
      ...childEnv(),
      ...ONE_ADDRESS_SHARES,
      ...(searchThreads === undefined ? {} : { SVC_DOCS_SEARCH_THREADS: String(searchThreads) }),
      ...env,
    },
  });
}

/** SIGTERM (the server closes its sessions and exits), SIGKILL if it hangs. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(timer);
}

/** CPU time (user + system) a process, or one of its threads, has used so far, in seconds (Linux /proc; 0 elsewhere). */
export function cpuSecondsOf(pid: number, thread?: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}${thread === undefined ? '' : `/task/${thread}`}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    const CLOCK_TICKS = 100;
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Resident memory of a process now and at its peak (Linux /proc), in MB. */
export function memoryOf(pid: number | 'self'): { rssMB: number; peakMB: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
  } catch {
    // Not Linux: the peak is unknown, the current RSS is still right for this process.
    const rss = pid === 'self' ? process.memoryUsage().rss / 2 ** 20 : 0;
    return { rssMB: rss, peakMB: rss };
  }
}
