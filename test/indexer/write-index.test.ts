import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { VectorCache } from '../../indexer/write/vector-cache.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { IndexError } from '../../src/index/format.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/** What a build leaves behind, and what it must never delete. */

/** A pid no process has (above Linux's pid_max): the writer of a leftover named with it is gone. */
const DEAD_PID = 4_194_305;

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

const FILES = { 'kb/a.md': '# Alpha\n\nalpha text about refunds\n', 'kb/b.md': '# Beta\n\nbeta text about webhooks\n' };

async function indexOf(
  files: Record<string, string>,
): Promise<{ outDir: string; corpus: string; vectorCacheDir: string }> {
  const corpus = writeCorpus(files);
  const outDir = tempDir('index');
  const vectorCacheDir = tempDir('vectors');
  await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  return { outDir, corpus, vectorCacheDir };
}

describe('writing an index', () => {
  it('after a kill between the build rename and the CURRENT switch, keeps the previous current build and removes the orphan', async () => {
    const { outDir, corpus, vectorCacheDir } = await indexOf(FILES);
    const live = basename((await currentBuildDir(outDir))!);
    // What a killed indexer leaves: a whole build, renamed into place, never made current (it sorts after the live one).
    const orphan = `build-29991231T000000000Z-${DEAD_PID}-0badf00d`;
    cpSync(join(outDir, live), join(outDir, orphan), { recursive: true });
    // A build another running indexer has renamed but not yet switched to.
    const inProgress = `build-29991231T000000001Z-${process.ppid}-0000cafe`;
    cpSync(join(outDir, live), join(outDir, inProgress), { recursive: true });

    writeFileSync(join(corpus, 'kb', 'c.md'), '# Gamma\n\ngamma text\n');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
    const current = basename((await currentBuildDir(outDir))!);
    const builds = readdirSync(outDir)
      .filter((e) => e.startsWith('build-'))
      .sort();
    expect(builds).toEqual([live, current, inProgress].sort());
    expect((await readIndex(outDir)).documents).toHaveLength(3);

    // The build before keeps being the one kept: the next build removes `live` (now two back).
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder, chunk: { maxSectionChars: 500 } });
    expect(
      readdirSync(outDir)
        .filter((e) => e.startsWith('build-'))
        .sort(),
    ).toEqual([current, basename((await currentBuildDir(outDir))!), inProgress].sort());
  });

  it('removes a vector-cache temp file whose writer was killed, and keeps one a live process is writing', async () => {
    const { corpus, vectorCacheDir } = await indexOf(FILES);
    const cacheFile = readdirSync(vectorCacheDir).find((e) => e.endsWith('.bin'))!;
    const dead = join(vectorCacheDir, `${cacheFile}.${DEAD_PID}.tmp`);
    const alive = join(vectorCacheDir, `${cacheFile}.${process.ppid}.tmp`);
    writeFileSync(dead, 'partial');
    writeFileSync(alive, 'partial');
    await buildIndex({ corpusDirs: [corpus], outDir: tempDir('index'), vectorCacheDir, embedder });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    // Opening the cache alone is enough (a build that embeds nothing new never saves).
    writeFileSync(dead, 'partial');
    await VectorCache.open(vectorCacheDir, 'x'.repeat(64), 100);
    expect(existsSync(dead)).toBe(false);
  });

  it('refuses a CURRENT that is a folder, before building, in one line naming it and the fix', async () => {
    const { outDir, corpus, vectorCacheDir } = await indexOf(FILES);
    const before = readdirSync(outDir).sort();
    const pointer = join(outDir, 'CURRENT');
    const name = readFileSync(pointer, 'utf8');
    rmSync(pointer);
    mkdirSync(pointer);
    const message = `${pointer} is a folder, but it must be a file naming the live build: remove the folder, then run 'svc-docs index'`;
    await expect(readIndex(outDir)).rejects.toThrow(IndexError);
    await expect(readIndex(outDir)).rejects.toThrow(message);
    await expect(buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder })).rejects.toThrow(
      `${message} again`,
    );
    expect(readdirSync(outDir).sort()).toEqual(before);
    expect(name).toMatch(/^build-/);
  });
});
