import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from '../lib/child-process.js';

/**
 * The bad inputs of a first hour, typed as the README has users type them (`npm run svc-docs --
 * …`, `npm start`), each timed from the command to its exit: issue 43 asks for one line on stderr
 * within 2 s. test/cli/first-hour-errors.test.ts checks the lines themselves; this times them.
 */

export interface FirstHourCase {
  input: string;
  command: string;
  seconds: number;
  exitCode: number;
  /** Non-empty lines the command wrote to stderr (npm's own lines are silenced with --silent). */
  stderrLines: number;
  lastLine: string;
}

export interface FirstHourResult {
  cases: FirstHourCase[];
  /** Why the old-Node case was not run, when it was not. */
  skipped?: string;
}

interface Run {
  input: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

function timeCommand(root: string, { input, args, env }: Run): Promise<FirstHourCase> {
  const started = performance.now();
  const child = spawn('npm', args, { cwd: root, env: env ?? childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const lines = stderr.split('\n').filter((l) => l.trim() !== '');
      resolve({
        input,
        command: `npm ${args.join(' ')}`,
        seconds: (performance.now() - started) / 1000,
        exitCode: code ?? (signal ? 128 : 1),
        stderrLines: lines.length,
        lastLine: lines.at(-1) ?? '',
      });
    });
  });
}

/** A folder on PATH whose `node` is older than 22, for the "Node 20" input; undefined when the machine has none. */
function oldNodeFolder(): string | undefined {
  for (const folder of ['/usr/bin', '/usr/local/bin']) {
    const run = spawnSync(join(folder, 'node'), ['--version'], { encoding: 'utf8' });
    const major = Number(/^v(\d+)/.exec(run.stdout ?? '')?.[1]);
    if (run.error === undefined && major > 0 && major < 22) return folder;
  }
  return undefined;
}

async function portInUse(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function measureFirstHour(root: string, log: (line: string) => void): Promise<FirstHourResult> {
  const work = mkdtempSync(join(tmpdir(), 'svc-docs-first-hour-'));
  const empty = join(work, 'empty');
  const images = join(work, 'images');
  const docs = join(work, 'docs');
  for (const dir of [empty, images, docs]) mkdirSync(dir);
  writeFileSync(join(images, 'diagram.png'), 'not text');
  writeFileSync(join(docs, 'guide.md'), '# Guide\n\nHow to start.\n');
  // Its own cache: no index or record of the user's is read or written.
  const env: NodeJS.ProcessEnv = { ...childEnv(), SVC_DOCS_CACHE_DIR: join(work, 'cache') };
  const svcDocs = (...args: string[]) => ['run', '--silent', 'svc-docs', '--', ...args];
  const taken = await portInUse();
  const runs: Run[] = [
    { input: 'missing folder', args: svcDocs('serve', '--corpus', join(work, 'missing'), '--port', '0'), env },
    { input: 'empty folder', args: svcDocs('serve', '--corpus', empty, '--port', '0'), env },
    { input: 'images only', args: svcDocs('serve', '--corpus', images, '--port', '0'), env },
    { input: 'port in use', args: svcDocs('serve', '--corpus', docs, '--port', String(taken.port)), env },
    { input: "typo'd flag", args: svcDocs('serve', '--corpsu', docs), env },
  ];
  const old = oldNodeFolder();
  if (old !== undefined)
    runs.push({ input: 'Node 20', args: ['start', '--silent'], env: { ...env, PATH: `${old}:${env.PATH ?? ''}` } });
  const cases: FirstHourCase[] = [];
  try {
    for (const run of runs) {
      const result = await timeCommand(root, run);
      log(`first hour: ${run.input}: ${result.seconds.toFixed(2)} s, ${result.stderrLines} line(s) on stderr`);
      cases.push(result);
    }
  } finally {
    await taken.close();
    rmSync(work, { recursive: true, force: true });
  }
  return old === undefined ? { cases, skipped: 'no Node older than 22 in /usr/bin or /usr/local/bin' } : { cases };
}

/** bench/results/first-hour.md: each input's time and lines beside the goal. */
export function renderFirstHour(result: FirstHourResult, load: number): string {
  const rows = result.cases.map(
    (c) =>
      `| ${c.input} | \`${c.command.replace(/\/tmp\/[^ ]*/g, '…')}\` | ${c.seconds.toFixed(2)} s | ${c.stderrLines} | ${c.exitCode} | ${c.lastLine.replace(/\/tmp\/[^ ]*/g, '…').replace(/\|/g, '\\|')} |`,
  );
  return [
    '# The first hour: bad inputs',
    '',
    `Written by \`npm run bench -- --parts=firsthour\` (bench/speed/first-hour.ts) on ${new Date().toISOString().slice(0, 16)} UTC, load average ${load.toFixed(1)} at the end.`,
    'Each command as the README has users type it, timed from the command to its exit. The goal (issue 43): one line on stderr, a non-zero exit, within 2 s.',
    '',
    '| input | command | wall time | lines on stderr | exit code | the line |',
    '|---|---|---|---|---|---|',
    ...rows,
    ...(result.skipped === undefined ? [] : ['', `The Node 20 input was not run: ${result.skipped}.`]),
    '',
  ].join('\n');
}
