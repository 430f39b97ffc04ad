import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * On a Node older than 22 every entry prints one line naming the need and the fix and exits
 * non-zero, instead of the SyntaxError the first Node 22 API would raise. Run with an old Node
 * this machine has (its own, behind the one scripts/use-node.sh put first on PATH).
 */

const MESSAGE =
  /^svc-docs: needs Node\.js 22\.13 or newer, but .+ is v\d+\.\d+\.\d+: .*'\. scripts\/use-node\.sh'.*install Node 22\.13\+$/;

function nodeMajor(binary: string): number | undefined {
  const result = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.split('.')[0]) : undefined;
}

/** The first Node older than 22 among the usual places and those on PATH. */
function findOldNode(): string | undefined {
  const onPath = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node'));
  const candidates = ['/usr/bin/node', '/usr/local/bin/node', ...onPath];
  return candidates.find((binary) => existsSync(binary) && (nodeMajor(binary) ?? 99) < 22);
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its exit (killed after a minute: an entry that went on to serve would not exit). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  const child = spawn(command, args, { cwd: projectRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const oldNode = findOldNode();
/** The environment with the old Node first on PATH, as in a new shell on this machine. */
const oldEnv = (): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_')));
  return { ...env, SVC_DOCS_PORT: '0', PATH: `${dirname(oldNode!)}${delimiter}${process.env.PATH}` };
};

if (oldNode === undefined) {
  const reason = 'no Node older than 22 on this machine (looked in /usr/bin, /usr/local/bin and PATH)';
  if (process.env.CI === 'true') it('finds an old Node to check the message with', () => expect.fail(reason));
  else console.warn(`node-version.test.ts skipped: ${reason}`);
}

describe.skipIf(oldNode === undefined)(`on an old Node (${oldNode})`, () => {
  let transpiled = '';
  beforeAll(async () => {
    // Inside the package, so the transpiled CLI finds the project root as dist/ does.
    mkdirSync(join(projectRoot(), '.cache'), { recursive: true });
    transpiled = mkdtempSync(join(projectRoot(), '.cache', 'transpiled-'));
    const built = await run(process.execPath, ['scripts/transpile.mjs', transpiled], process.env);
    expect(built.code, built.stderr).toBe(0);
  });
  afterAll(() => rmSync(transpiled, { recursive: true, force: true }));

  function expectTheLine(result: Finished, otherLines: 'none' | 'npm'): void {
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(result.stderr).not.toMatch(/SyntaxError/);
    if (otherLines === 'none') expect(lines, result.stderr).toHaveLength(1);
    expect(
      lines.filter((line) => MESSAGE.test(line)),
      result.stderr,
    ).toHaveLength(1);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
  }

  it('the svc-docs command (the compiled bin) prints the one line and exits non-zero', async () => {
    const result = await run(oldNode!, [join(transpiled, 'src', 'cli.js'), 'serve'], oldEnv());
    expectTheLine(result, 'none');
    expect(result.stdout).toBe('');
  });

  it('npm start and npm run svc-docs print it before anything else runs', async () => {
    for (const args of [['start'], ['run', 'svc-docs', '--', 'serve', '--no-build']]) {
      const result = await run('npm', args, oldEnv());
      expectTheLine(result, 'npm');
    }
  });

  it('every npm script that runs the project checks first', () => {
    const { scripts } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const name of ['start', 'svc-docs', 'test', 'test:fast', 'test:full', 'bench', 'test:load'])
      expect(scripts[name], name).toMatch(/^node scripts\/check-node\.cjs && /);
  });
});
