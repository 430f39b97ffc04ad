import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexSettings } from '../../src/settings/commands.js';
import { readIndex } from '../../src/index/open-index.js';
import { projectRoot } from '../../src/project-root.js';
import { KeptReindexer, ReindexError } from '../../src/serve/reindex-process.js';
import { buildTinyBert } from '../embedding/tiny-bert.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { alive, buildWriter } from '../helpers/processes.js';
import { runCli } from '../reliability/helpers.js';

/**
 * The reindexer `serve --watch` keeps: a real `svc-docs index --ipc` process (from source), one
 * build per request, kept between them, let go when idle or closed, replaced when it dies.
 */

const reindexers: KeptReindexer[] = [];
afterEach(async () => {
  await Promise.all(reindexers.splice(0).map((r) => r.close()));
});

/** Short pauses between tries, so a test sees them all. */
const RETRY_DELAYS_MS = [100, 200];

function setUp(idleMs = 60_000, model?: string, script = join(projectRoot(), 'src', 'cli.ts')) {
  const corpus = writeCorpus({ 'kb/deploy.md': '# Deploy\n\n## Rollback\n\nRun the flamingo rollback.\n' });
  const index = tempDir('kept-index');
  const settings = indexSettings({ corpus: [corpus], out: index, vectorCache: tempDir('kept-vectors'), model }, {});
  const lines: string[] = [];
  const reindexer = new KeptReindexer(settings, (line) => lines.push(line), {
    script,
    execArgv: ['--import', 'tsx'],
    idleMs,
    retryDelaysMs: RETRY_DELAYS_MS,
  });
  reindexers.push(reindexer);
  const writer = () => buildWriter(index);
  return { corpus, index, reindexer, lines, writer };
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the kept reindexer', () => {
  it('builds each edit in the same process, which it lets go when idle and replaces at the next edit', async () => {
    const { corpus, reindexer, lines, writer } = setUp(1_000);
    await reindexer.rebuild();
    const first = reindexer.pid!;
    expect(writer()).toBe(first);
    expect(lines.some((l) => /changes since the previous index: 1 added/.test(l))).toBe(true);

    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe pelican pager.\n');
    await reindexer.rebuild();
    expect(reindexer.pid).toBe(first);
    expect(writer()).toBe(first);
    expect(lines.filter((l) => /changes since the previous index: 1 added/.test(l))).toHaveLength(2);

    await until(() => !alive(first), 30_000);
    expect(reindexer.pid).toBeUndefined();
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe heron pager.\n');
    await reindexer.rebuild();
    expect(writer()).not.toBe(first);
    expect(writer()).toBe(reindexer.pid);
  }, 120_000);

  it('answers a failed build as failed and stays, without trying it again; the next build succeeds in the same process', async () => {
    const { corpus, reindexer, writer, lines } = setUp();
    await reindexer.rebuild();
    const pid = reindexer.pid!;
    renameSync(corpus, `${corpus}-away`);
    await expect(reindexer.rebuild()).rejects.toThrow(
      /the reindex failed \(.*does not exist.*previous index keeps serving/,
    );
    expect(lines.filter((l) => l.includes('trying again'))).toEqual([]);
    expect(reindexer.pid).toBe(pid);
    renameSync(`${corpus}-away`, corpus);
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe pelican pager.\n');
    await reindexer.rebuild();
    expect(writer()).toBe(pid);
  }, 120_000);

  it('builds again in a new process when its process dies mid-build, with no new edit', async () => {
    const { corpus, index, reindexer, writer, lines } = setUp();
    await reindexer.rebuild();
    const pid = reindexer.pid!;
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe pelican pager.\n');
    // Killed right after the request is sent: before it can have answered.
    const building = reindexer.rebuild();
    process.kill(pid, 'SIGKILL');
    await building;
    expect(lines.filter((l) => l.includes('trying again'))).toEqual([
      'the reindex was stopped by SIGKILL; the previous index keeps serving; trying again in 0.1 s (retry 1 of 2)',
    ]);
    expect(writer()).not.toBe(pid);
    expect(writer()).toBe(reindexer.pid);
    expect((await readIndex(index)).documents.map((d) => d.path)).toContain('oncall.md');
  }, 120_000);

  it('gives up a reindex that dies every time after the last pause, and says so; the next edit tries again', async () => {
    const dir = tempDir('dying');
    const starts = join(dir, 'starts');
    // A reindexer that dies on every build request, as one run out of memory on some page would.
    const script = join(dir, 'dies.mjs');
    writeFileSync(
      script,
      [
        `import { appendFileSync } from 'node:fs';`,
        `appendFileSync(${JSON.stringify(starts)}, 'x');`,
        `process.on('message', () => process.exit(3));`,
      ].join('\n'),
    );
    const { reindexer, lines } = setUp(60_000, undefined, script);
    await expect(reindexer.rebuild()).rejects.toThrow(
      new ReindexError(
        'the reindex died 3 times in a row (last: the reindex exited with code 3; the previous index keeps serving); it is tried again at the next edit',
        'reindex_died',
      ),
    );
    expect(readFileSync(starts, 'utf8')).toBe('xxx');
    expect(lines.filter((l) => l.includes('trying again'))).toEqual([
      'the reindex exited with code 3; the previous index keeps serving; trying again in 0.1 s (retry 1 of 2)',
      'the reindex exited with code 3; the previous index keeps serving; trying again in 0.2 s (retry 2 of 2)',
    ]);
    await expect(reindexer.rebuild()).rejects.toMatchObject({ code: 'reindex_died' });
    expect(readFileSync(starts, 'utf8')).toBe('xxxxxx');
  }, 120_000);

  it('keeps the model between builds, and loads it again once its files change', async () => {
    const model = buildTinyBert(join(tempDir('kept-model'), 'tiny-bert'));
    const { corpus, index, reindexer, lines } = setUp(60_000, model);
    await reindexer.rebuild();
    const pid = reindexer.pid;
    const first = (await readIndex(index)).manifest.model.checksum;
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe pelican pager.\n');
    await reindexer.rebuild();
    expect((await readIndex(index)).manifest.model.checksum).toBe(first);
    expect(lines.filter((l) => l.startsWith('loaded model'))).toHaveLength(1);

    appendFileSync(join(model, 'config.json'), '\n');
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe heron pager.\n');
    await reindexer.rebuild();
    expect(reindexer.pid).toBe(pid);
    expect((await readIndex(index)).manifest.model.checksum).not.toBe(first);
    expect(lines.filter((l) => l.startsWith('loaded model'))).toHaveLength(2);
  }, 120_000);

  it('lets its process go when closed', async () => {
    const { reindexer } = setUp();
    await reindexer.rebuild();
    const pid = reindexer.pid!;
    await reindexer.close();
    expect(alive(pid)).toBe(false);
    await expect(reindexer.rebuild()).rejects.toThrow(/closed/);
  }, 120_000);

  it('closes while a build is under way: the build ends, answered or failed, and so does the process', async () => {
    const { corpus, reindexer } = setUp();
    await reindexer.rebuild();
    const pid = reindexer.pid!;
    writeFileSync(join(corpus, 'kb', 'oncall.md'), '# On call\n\nThe pelican pager.\n');
    const building = reindexer.rebuild().then(
      () => 'built',
      (error: Error) => error.message,
    );
    await reindexer.close();
    expect(alive(pid)).toBe(false);
    expect(await building).toMatch(/^built$|exited with code 0|stopped by SIGKILL/);
  }, 120_000);

  it('refuses to start by hand: --ipc without an IPC channel is a usage error, and no index is written', async () => {
    const out = tempDir('kept-by-hand');
    const run = await runCli([
      'index',
      '--ipc',
      '--corpus',
      writeCorpus({ 'kb/a.md': '# A\n\nText.\n' }),
      '--out',
      out,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--ipc is only for the reindexer serve --watch starts/);
    expect(existsSync(join(out, 'CURRENT'))).toBe(false);
  }, 60_000);
});
