import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { defaultIndexDir } from '../../src/settings/defaults.js';
import {
  cliEnv,
  type Finished,
  freshCache,
  killChildren,
  linesOf,
  runCli,
  serveUntilReady,
} from '../helpers/cli-run.js';

afterAll(killChildren);
import { tempDir } from '../helpers/index-fixture.js';

/**
 * The bad inputs of a first hour with svc-docs, each ending in one line that says what is wrong
 * and what to do, and a non-zero exit: a corpus folder that is missing, empty, or holds only
 * images; a port in use (said before any index is built); a Node older than the project needs;
 * a typo'd flag (the hint and --help named, not the whole help). No timings are asserted: that the
 * port is checked first is shown by the index not being built.
 */

function expectOneLine(run: Finished, pattern: RegExp): void {
  const lines = linesOf(run.stderr);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-docs: /);
  expect(lines[0]).toMatch(pattern);
  expect(run.code).not.toBe(0);
  expect(run.code).not.toBeNull();
}

const SUPPORTED = /svc-docs reads files named \*\.md, \*\.markdown, .*\*\.asciidoc$/;

describe('the first hour: each bad input ends in one line', () => {
  it('a corpus folder that does not exist', async () => {
    const missing = join(tempDir('first-hour'), 'no-such-docs');
    for (const args of [
      ['index', '--corpus', missing],
      ['serve', '--corpus', missing, '--port', '0'],
    ]) {
      const run = await runCli(args, cliEnv());
      expectOneLine(run, new RegExp(`corpus folder ${missing} does not exist or is not a folder$`));
      // Said before serve's log starts: no start line, no build announced from a folder not there.
      expect(run.stdout, args[0]).toBe('');
    }
  });

  it('an empty corpus folder: serve says so before it announces a build', async () => {
    const empty = tempDir('first-hour-empty');
    for (const args of [
      ['index', '--corpus', empty],
      ['serve', '--corpus', empty, '--port', '0'],
    ]) {
      const run = await runCli(args, cliEnv({}, freshCache()));
      expectOneLine(run, new RegExp(`^svc-docs: no documents found in ${empty}: `));
      expect(run.stdout, args[0]).not.toContain('"event":"index-build"');
    }
  });

  it('a corpus folder of images only: the one line names what it holds', async () => {
    const images = tempDir('first-hour-images');
    mkdirSync(join(images, 'screens'));
    for (const name of ['a.png', 'b.png', 'c.jpg']) writeFileSync(join(images, 'screens', name), 'not text');
    const run = await runCli(['index', '--corpus', images], cliEnv());
    expectOneLine(
      run,
      new RegExp(
        `^svc-docs: no documents found in ${images} \\(only files of other types: \\.png \\(2\\), \\.jpg \\(1\\)\\): `,
      ),
    );
    expect(linesOf(run.stderr)[0]).toMatch(SUPPORTED);
    expect(run.stdout).toBe('');
  });

  describe('a port in use', () => {
    const taken: Server = createServer();
    beforeAll(() => new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve)));
    afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('is said before the index is built', async () => {
      const port = (taken.address() as { port: number }).port;
      const cache = freshCache();
      const corpus = tempDir('first-hour-corpus');
      writeFileSync(join(corpus, 'guide.md'), '# Guide\n\nHow to start.\n');
      const run = await runCli(['serve', '--corpus', corpus, '--port', String(port)], cliEnv({}, cache));
      expectOneLine(run, new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`));
      expect(run.stdout).not.toContain('"event":"index-build"');
      expect(existsSync(defaultIndexDir([corpus], cache))).toBe(false);
    });
  });

  it("serve's build logs the files it leaves out at warn level", async () => {
    const corpus = tempDir('first-hour-mixed');
    mkdirSync(join(corpus, 'guide'));
    writeFileSync(join(corpus, 'guide', 'start.md'), '# Start\n\nHow to start.\n');
    writeFileSync(join(corpus, 'guide', 'diagram.png'), 'not text');
    const run = await serveUntilReady(['--corpus', corpus], cliEnv({}, freshCache()));
    expect(run.code, run.stderr).toBe(0);
    const skipped = linesOf(run.stdout)
      .map((line) => JSON.parse(line) as { level: string; event: string; message?: string })
      .filter((entry) => entry.message?.startsWith('skipped '));
    expect(skipped).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'index-build-output',
        message: 'skipped 1 file of unsupported types: .png (1)',
      }),
    ]);
  });

  it('a Node older than 22.13', () => {
    // check-node.cjs as an old Node runs it: process.version and process.versions as Node 20's.
    const asNode20 =
      "Object.defineProperty(process, 'version', { value: 'v20.19.2' });" +
      "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.19.2' } });" +
      "require('./scripts/check-node.cjs')";
    const run = spawnSync(process.execPath, ['-e', asNode20], { cwd: projectRoot(), encoding: 'utf8' });
    if (run.error !== undefined) throw run.error;
    expectOneLine(
      { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr },
      /^svc-docs: needs Node\.js 22\.13 or newer, but .+ is v20\.19\.2: in the svc-docs folder run '\. scripts\/use-node\.sh'/,
    );
  });

  it('a typo in a flag: the hint and --help named, not the whole help', async () => {
    const run = await runCli(['serve', '--corpse', './docs'], cliEnv());
    expectOneLine(run, /^svc-docs: unknown option '--corpse' \(Did you mean --corpus\?\); see svc-docs serve --help$/);
    expect(run.stdout).toBe('');
    const command = await runCli(['serv'], cliEnv());
    expectOneLine(command, /^svc-docs: unknown command 'serv' \(Did you mean serve\?\); see svc-docs --help$/);
  });

  it('names an SVC_DOCS_ variable that is no setting (a typo, or a removed one) in one warning line', async () => {
    const run = await runCli(['status'], cliEnv({ SVC_DOCS_READ_PAGE_TOOL: '1', SVC_DOCS_PROT: '4000' }, freshCache()));
    const warnings = linesOf(run.stderr).filter((line) => line.includes('warning'));
    expect(warnings).toEqual([
      'svc-docs: warning: SVC_DOCS_PROT is not a setting and is ignored (svc-docs --help, docs/configuration.md)',
      'svc-docs: warning: SVC_DOCS_READ_PAGE_TOOL is not a setting and is ignored (svc-docs --help, docs/configuration.md)',
    ]);
  });
});
