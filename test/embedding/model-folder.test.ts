import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BUILDER_VERSION } from '../../src/embedding/static-model-settings.js';
import { ensureModelFolder, folderProblem, type Provenance } from '../../src/embedding/model-folder.js';
import { buildTinyModel, scratchDir } from './tiny-model.js';

const isCurrent = (provenance: Provenance) => provenance.builderVersion === BUILDER_VERSION;

/** ensureModelFolder with the tiny builder, counting builds. */
function tinyEnsurer() {
  const counter = { builds: 0 };
  const ensure = (dir: string, build: (tmp: string) => Promise<void> = async (tmp) => void buildTinyModel(tmp)) =>
    ensureModelFolder(dir, {
      isCurrent,
      build: async (tmp) => {
        counter.builds++;
        await build(tmp);
      },
      log: () => {},
    });
  return { counter, ensure };
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('ensureModelFolder', () => {
  const root = scratchDir('folder');

  it('builds a missing folder once when several callers ask at the same time, and leaves nothing else behind', async () => {
    const { counter, ensure } = tinyEnsurer();
    const dir = join(root, 'concurrent', 'model');
    await Promise.all([ensure(dir), ensure(dir), ensure(dir)]);
    expect(counter.builds).toBe(1);
    expect(folderProblem(dir, isCurrent)).toBeUndefined();
    expect(readdirSync(join(root, 'concurrent'))).toEqual(['model']);
    await ensure(dir);
    expect(counter.builds).toBe(1);
  });

  it('rebuilds a folder whose file no longer matches its checksum, or that another builder version wrote', async () => {
    const { counter, ensure } = tinyEnsurer();
    const dir = join(root, 'repair', 'model');
    await ensure(dir);
    const table = join(dir, 'table.f32');
    writeFileSync(table, readFileSync(table).subarray(0, 100));
    expect(folderProblem(dir, isCurrent)).toBe('table.f32 does not match its checksum');
    await ensure(dir);
    expect(counter.builds).toBe(2);
    expect(folderProblem(dir, isCurrent)).toBeUndefined();

    const provenancePath = join(dir, 'provenance.json');
    writeFileSync(
      provenancePath,
      JSON.stringify({ ...JSON.parse(readFileSync(provenancePath, 'utf8')), builderVersion: -1 }),
    );
    await ensure(dir);
    expect(counter.builds).toBe(3);
    expect(JSON.parse(readFileSync(provenancePath, 'utf8')).builderVersion).toBe(BUILDER_VERSION);
  });

  it('never leaves a half-built folder that looks complete when a build fails', async () => {
    const { ensure } = tinyEnsurer();
    const parent = join(root, 'crash');
    const dir = join(parent, 'model');
    const failing = async (tmp: string) => {
      mkdirSync(join(tmp, 'onnx'), { recursive: true });
      writeFileSync(join(tmp, 'config.json'), '{}');
      throw new Error('disk full');
    };
    await expect(ensure(dir, failing)).rejects.toThrow('disk full');
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(parent)).toEqual([]); // no temp folder, no lock
  });

  it('takes over the lock and the temp folder of a builder that died', async () => {
    const { counter, ensure } = tinyEnsurer();
    const parent = join(root, 'abandoned');
    const dir = join(parent, 'model');
    const pid = deadPid();
    mkdirSync(join(parent, `model.building-${pid}-0badc0de`, 'onnx'), { recursive: true });
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid, host: hostname() }));
    await ensure(dir);
    expect(counter.builds).toBe(1);
    expect(readdirSync(parent)).toEqual(['model']);
  });

  it('waits while a live process holds the lock, then finds the folder built', async () => {
    const { counter, ensure } = tinyEnsurer();
    const parent = join(root, 'waiting');
    const dir = join(parent, 'model');
    mkdirSync(parent, { recursive: true });
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, host: hostname() }));
    let done = false;
    const waiting = ensure(dir).then(() => {
      done = true;
    });
    await sleep(500);
    expect(done).toBe(false);
    // The "other process" finishes: the folder appears and the lock goes.
    buildTinyModel(dir);
    rmSync(`${dir}.lock`);
    await waiting;
    expect(counter.builds).toBe(0);
  });
});
