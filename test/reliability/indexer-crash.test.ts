import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine } from '../../src/search/engine.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { cliEntry, cliEnv, linesOf, runCli } from './helpers.js';

/**
 * The indexer (`svc-docs index`, a real process) killed with SIGKILL at points across a build,
 * and failing to write: the index a server would load stays the previous one, whole and
 * searchable, and the next run succeeds. Killing runs in-process (afterBatch throwing) is
 * covered by test/index/read-index.test.ts; this is the real process and real signals.
 */

/** 41 pages of 51 short sections: 2,000+ vectors, so the vector file is large enough to fill limits. */
function corpusFiles(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {};
  for (let d = 0; d < 40; d++) {
    const parts = Array.from({ length: 50 }, (_, k) => `## Part ${k}\n\nalpha beta gamma ${d} delta.\n`).join('\n');
    files[`kb/doc${String(d).padStart(2, '0')}.md`] = `# Document ${d}\n\nIntro alpha beta.\n\n${parts}`;
  }
  return { ...files, ...extra };
}
const V1 = corpusFiles();
const V2 = corpusFiles({ 'kb/zebra.md': '# Zebra crossing\n\nThe zebra page is new in the second version.\n' });
const pathsOf = (files: Record<string, string>) =>
  Object.keys(files)
    .map((p) => p.slice('kb/'.length))
    .sort();

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

function current(indexDir: string): string {
  return readFileSync(join(indexDir, 'CURRENT'), 'utf8').trim();
}

/** What a server would see: the current index loads, verifies, and answers a search. */
async function expectServable(indexDir: string, files: Record<string, string>): Promise<void> {
  const index = await readIndex(indexDir);
  expect(index.documents.map((d) => d.path).sort()).toEqual(pathsOf(files));
  const engine = await openEngine(indexDir, { embedder });
  try {
    const results = await engine.search('alpha beta gamma delta');
    expect(results.length).toBeGreaterThan(0);
  } finally {
    await engine.close();
  }
}

interface Kill {
  name: string;
  /** Arms the trigger; calls `kill()` at the point. Returns a disposer. */
  arm: (ctx: {
    child: ChildProcess;
    onLine: (listener: (line: string) => void) => void;
    outDir: string;
    cacheDir: string;
    kill: () => void;
  }) => () => void;
  /** True if the kill may land after CURRENT switched (then the new index must be whole instead). */
  mayBeLate?: boolean;
  /** Readies the folders before the run is started. */
  prepare?: (ctx: { cacheDir: string }) => void;
}

function onEntry(dir: string, match: (name: string) => boolean, kill: () => void): () => void {
  const watcher: FSWatcher = watch(dir, (_event, name) => {
    if (name !== null && match(String(name))) kill();
  });
  return () => watcher.close();
}

const KILLS: Kill[] = [
  { name: 'at start-up', arm: ({ kill }) => (kill(), () => undefined) },
  {
    name: 'once the model is loaded',
    arm: ({ onLine, kill }) => (onLine((l) => l.startsWith('loaded model') && kill()), () => undefined),
  },
  {
    name: 'while embedding sections',
    arm: ({ onLine, kill }) => (onLine((l) => /^embedding sections: \d+\//.test(l) && kill()), () => undefined),
  },
  {
    name: 'while saving the vector cache',
    // Emptied first, the cache always has vectors to save: on a loaded machine an earlier point's
    // kill can land after that run saved them all, and this run then had nothing to save.
    prepare: ({ cacheDir }) => {
      for (const entry of readdirSync(cacheDir)) rmSync(join(cacheDir, entry), { recursive: true, force: true });
    },
    arm: ({ cacheDir, kill }) => onEntry(cacheDir, (n) => n.endsWith('.tmp'), kill),
  },
  {
    name: 'while writing the new build folder',
    arm: ({ outDir, kill }) => onEntry(outDir, (n) => n.startsWith('.tmp-'), kill),
  },
  {
    name: 'between the build folder and the CURRENT switch',
    arm: ({ outDir, kill }) => {
      const before = current(outDir);
      return onEntry(outDir, (n) => (n.startsWith('build-') && n !== before) || n.startsWith('.CURRENT.'), kill);
    },
    mayBeLate: true,
  },
];

/** Runs `svc-docs index` and SIGKILLs it at the point `kill` arms; resolves once it is dead. */
function indexAndKill(
  corpus: string,
  outDir: string,
  cacheDir: string,
  point: Kill,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cliEntry(), 'index', '--corpus', corpus, '--out', outDir, '--vector-cache', cacheDir],
      {
        cwd: projectRoot(),
        env: cliEnv(),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    let pending = '';
    const listeners: ((line: string) => void)[] = [];
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) for (const l of listeners) l(line);
    });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const disarm = point.arm({ child, onLine: (l) => listeners.push(l), outDir, cacheDir, kill });
    // Bounded: a trigger that never fires still ends the run, and the test sees it was not killed.
    const timer = setTimeout(kill, 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      disarm();
      resolve({ code, signal, stderr });
    });
  });
}

describe('the indexer killed with SIGKILL mid-build', () => {
  it('keeps the previous index current, whole and searchable at every point, and the next run succeeds', {
    timeout: 600_000,
  }, async () => {
    const outDir = tempDir('crash-index');
    const cacheDir = tempDir('crash-vectors');
    await buildIndex({ corpusDirs: [writeCorpus(V1)], outDir, vectorCacheDir: cacheDir, embedder });
    const before = current(outDir);
    await expectServable(outDir, V1);

    const corpus = writeCorpus(V2);
    const outcomes: string[] = [];
    for (const point of KILLS) {
      point.prepare?.({ cacheDir });
      const run = await indexAndKill(corpus, outDir, cacheDir, point);
      expect(run.signal, `the indexer was not killed ${point.name}: ${run.stderr}`).toBe('SIGKILL');
      if (current(outDir) === before) {
        await expectServable(outDir, V1);
        outcomes.push(`${point.name}: previous index kept`);
      } else {
        // Only a kill that may land after the switch can see the new index, and then it is whole.
        expect(point.mayBeLate, `CURRENT switched although the indexer was killed ${point.name}`).toBe(true);
        await expectServable(outDir, V2);
        outcomes.push(`${point.name}: killed after the switch, new index whole`);
      }
    }
    console.log(`indexer kills survived:\n  ${outcomes.join('\n  ')}`);

    // A build the kill between rename and switch left behind, never made current (when the kill landed before the switch).
    // The next run gets a change of its own, so it builds and switches even when the last kill landed
    // after its switch (on an unchanged corpus a run writes nothing, and cleans no builds).
    const v3 = { ...V2, 'kb/yak.md': '# Yak shaving\n\nThe yak page arrives with the run after the kills.\n' };
    writeFileSync(join(corpus, 'kb', 'yak.md'), v3['kb/yak.md']);
    const previous = current(outDir);
    const last = await runCli(['index', '--corpus', corpus, '--out', outDir, '--vector-cache', cacheDir], {
      timeoutMs: 120_000,
    });
    expect(last.code, last.stderr).toBe(0);
    expect(current(outDir)).not.toBe(previous);
    await expectServable(outDir, v3);
    // The dead runs' temporary folders, pointer files and orphan builds are gone; the current
    // build and the one it replaced (which a server may still read) are kept.
    const entries = readdirSync(outDir);
    expect(entries.filter((e) => e.startsWith('.'))).toEqual([]);
    // `before` was written by this test's own process, which is alive, so it is kept as a live
    // indexer's build would be: leave it out of the count.
    const builds = entries.filter((e) => e.startsWith('build-') && e !== before);
    expect(builds.sort()).toEqual([previous, current(outDir)].filter((b) => b !== before).sort());
    // The vector-cache save killed midway left no temp file behind.
    expect(readdirSync(cacheDir).filter((e) => e.endsWith('.tmp'))).toEqual([]);
  });
});

const prlimit = spawnSync('prlimit', ['--version']).status === 0;

describe('the indexer failing to write', () => {
  /** An index of V1 in a new folder, and a vector cache already holding V2's vectors (so the failing run writes no cache). */
  async function previousIndexAndWarmCache(): Promise<{ outDir: string; cacheDir: string; corpus: string }> {
    const outDir = tempDir('write-fail-index');
    const cacheDir = tempDir('write-fail-vectors');
    await buildIndex({ corpusDirs: [writeCorpus(V1)], outDir, vectorCacheDir: cacheDir, embedder });
    const corpus = writeCorpus(V2);
    await buildIndex({ corpusDirs: [corpus], outDir: tempDir('scratch-index'), vectorCacheDir: cacheDir, embedder });
    return { outDir, cacheDir, corpus };
  }

  async function expectWriteFailure(limitBytes: number, reason: RegExp): Promise<void> {
    const { outDir, cacheDir, corpus } = await previousIndexAndWarmCache();
    const before = current(outDir);
    // A file size limit stops writes for root too (unlike chmod): every write past it fails with EFBIG.
    const run = await runCli(['index', '--corpus', corpus, '--out', outDir, '--vector-cache', cacheDir], {
      command: ['prlimit', `--fsize=${limitBytes}:${limitBytes}`, '--'],
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(1);
    const errors = linesOf(run.stderr).filter((l) => l.startsWith('svc-docs:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(`^svc-docs: cannot write the index to ${outDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`),
    );
    expect(errors[0]).toMatch(reason);
    expect(errors[0]).toMatch(/the previous index is unchanged: .*, then run 'svc-docs index' again$/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(current(outDir)).toBe(before);
    await expectServable(outDir, V1);
    expect(readdirSync(outDir).filter((e) => e.startsWith('.'))).toEqual([]);

    const next = await runCli(['index', '--corpus', corpus, '--out', outDir, '--vector-cache', cacheDir], {
      timeoutMs: 120_000,
    });
    expect(next.code, next.stderr).toBe(0);
    await expectServable(outDir, V2);
  }

  it.runIf(prlimit)(
    'a data file hitting the file size limit: one clear line, previous index kept, next run succeeds',
    { timeout: 300_000 },
    async () => {
      await expectWriteFailure(150_000, /EFBIG: file too large/);
    },
  );

  it('an output path under a file (ENOTDIR): one clear line', async () => {
    const parent = join(tempDir('not-a-folder'), 'file');
    writeFileSync(parent, 'a file, not a folder');
    const run = await runCli(
      [
        'index',
        '--corpus',
        writeCorpus({ 'kb/a.md': '# A\n\nalpha\n' }),
        '--out',
        join(parent, 'index'),
        '--vector-cache',
        tempDir('v'),
      ],
      {
        timeoutMs: 120_000,
      },
    );
    expect(run.code).toBe(1);
    const errors = linesOf(run.stderr).filter((l) => l.startsWith('svc-docs:'));
    expect(errors).toEqual([
      expect.stringMatching(
        /^svc-docs: cannot write the index to .*\/file\/index \(ENOTDIR: .*\); .*choose an output path whose parents are folders, not files/,
      ),
    ]);
  });
});
