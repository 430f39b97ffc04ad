import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { INDEX_FORMAT_VERSION } from '../../src/index/manifest.js';
import { fixtureIndex, tempDir } from '../helpers/index-fixture.js';
import { resign, resignSections } from '../index/resign.js';
import { expectRefusal, FILES, REBUILD } from './serve-refusal.js';

/**
 * A damaged or foreign index at the command line: `svc-docs serve --no-build` refuses to start
 * with exactly one line on stderr that names the file or folder and says what to do, exits 1, and
 * never listens (test/reliability/serve-refusal.ts). A broken model: model-faults.test.ts. (The store-level errors are in test/index/read-index.test.ts;
 * a bad index appearing under a running server is refused while the old one keeps serving, in
 * test/serve/reload.test.ts; the loader's model errors are in test/embedding/embedder-errors.test.ts.)
 */

let good: string;
beforeAll(async () => {
  good = await fixtureIndex(FILES);
});

/** A copy of the good index, damaged by `damage(buildDir, indexDir)`. */
async function damaged(damage: (build: string, index: string) => void | Promise<void>): Promise<string> {
  const dir = tempDir('damaged-index');
  cpSync(good, dir, { recursive: true });
  const build = join(dir, readFileSync(join(dir, 'CURRENT'), 'utf8').trim());
  await damage(build, dir);
  return dir;
}

function editManifest(build: string, edit: (manifest: Record<string, unknown>) => Record<string, unknown>): void {
  const path = join(build, 'manifest.json');
  writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)));
}

/** Damages a data file and records its new checksum, as a careless tool or an attacker with write access would. */
function resigned(build: string, file: string, damage: (data: Buffer) => Buffer): void {
  resign(build, file, damage(readFileSync(join(build, file))));
}

/** The first document claims 999 sections (sections.bin re-encoded and re-signed). */
function withLongDocument(build: string): Promise<void> {
  return resignSections(build, (t) => void (t.documents[0]!.sectionCount = 999));
}

describe.concurrent('serve refuses a damaged or foreign index with one clear line', () => {
  const cases: [string, (build: string, index: string) => void, RegExp, RegExp?][] = [
    [
      'a truncated vector file',
      (b) => truncateSync(join(b, 'vectors.f32'), 10),
      /vectors\.f32 is corrupt \(checksum mismatch\)/,
    ],
    [
      'a flipped byte in sections.bin',
      (b) => {
        const data = readFileSync(join(b, 'sections.bin'));
        const at = Math.floor(data.length / 2);
        data[at] = data[at]! ^ 0x20;
        writeFileSync(join(b, 'sections.bin'), data);
      },
      /sections\.bin is corrupt \(bytes \d+–\d+ do not match their checksum\)/,
    ],
    ['a missing postings.bin', (b) => unlinkSync(join(b, 'postings.bin')), /postings\.bin is missing/],
    [
      'a truncated postings.bin under a valid checksum',
      (b) => resigned(b, 'postings.bin', (d) => d.subarray(0, d.length - 16)),
      /postings\.bin is malformed \(it ends \d+ bytes early \(truncated\)\)/,
    ],
    [
      'an index of the previous format (sections.json, lexical.json)',
      (b) => editManifest(b, (m) => ({ ...m, formatVersion: 1 })),
      new RegExp(`has index format 1 but this svc-docs reads format ${INDEX_FORMAT_VERSION}:`),
    ],
    [
      'a missing CURRENT pointer',
      (_b, i) => unlinkSync(join(i, 'CURRENT')),
      /no index in .*\(no CURRENT file\): run 'svc-docs index' first/,
    ],
    ['a CURRENT naming a deleted build', (b) => rmSync(b, { recursive: true }), /manifest\.json is missing/],
    [
      'a CURRENT full of garbage',
      (_b, i) => writeFileSync(join(i, 'CURRENT'), '../../etc/passwd\n'),
      /CURRENT is corrupt \(it should name a build folder\)/,
    ],
    [
      'a manifest that is not JSON',
      (b) => writeFileSync(join(b, 'manifest.json'), '{"formatVersion": 1,'),
      /manifest\.json is not valid JSON/,
    ],
    [
      'an index of another format version',
      (b) => editManifest(b, (m) => ({ ...m, formatVersion: 99 })),
      new RegExp(`has index format 99 but this svc-docs reads format ${INDEX_FORMAT_VERSION}:`),
    ],
    [
      'a manifest missing its model',
      (b) => editManifest(b, ({ model: _model, ...m }) => m),
      /manifest\.json is malformed \(model: /,
    ],
    [
      'a section count that does not match',
      (b) => editManifest(b, (m) => ({ ...m, sections: 9999 })),
      /holds \d+ sections but the manifest says 9999/,
    ],
    [
      'vectors of the wrong size under a valid checksum',
      (b) => resigned(b, 'vectors.f32', (d) => d.subarray(0, d.length - 4)),
      /vectors\.f32 has \d+ bytes, expected \d+/,
    ],
    [
      'a document range past the last section under a valid checksum',
      (b) => withLongDocument(b),
      /sections\.bin refers outside the index \(document 0 claims sections 0–998/,
    ],
    [
      'a CURRENT that is a folder',
      (_b, i) => {
        rmSync(join(i, 'CURRENT'));
        mkdirSync(join(i, 'CURRENT'));
      },
      /CURRENT is a folder, but it must be a file naming the live build: remove the folder/,
      /then run 'svc-docs index'$/,
    ],
    [
      'an index built with another model (same name, other files)',
      (b) => editManifest(b, (m) => ({ ...m, model: { ...(m.model as object), checksum: 'f'.repeat(64) } })),
      /was built with model svc-glove-sif-100d \(100 dims, checksum ffffffffffff\) but the server loads/,
    ],
    [
      'an index built with a model this machine does not have',
      (b) =>
        editManifest(b, (m) => ({
          ...m,
          model: { id: 'Xenova/all-MiniLM-L6-v2', dimensions: 100, checksum: 'a'.repeat(64) },
        })),
      /model "Xenova\/all-MiniLM-L6-v2" is not a local folder and remote models are disabled/,
      /set SVC_DOCS_ALLOW_REMOTE_MODELS=1/,
    ],
  ];
  for (const [name, damage, line, todo = REBUILD] of cases) {
    it(name, async () => {
      await expectRefusal(await damaged(damage), line, {}, todo);
    });
  }

  it('an index folder that does not exist', async () => {
    await expectRefusal(join(tempDir('nothing'), 'no-such-index'), /no index in .*/, {}, /run 'svc-docs index' first/);
  });
});

describe('a live reload of an index whose references are out of range', () => {
  it('is refused with one log line naming the file, and the old index keeps serving', async () => {
    const dir = await damaged(() => undefined);
    const initial = await openEngine(dir);
    const log: string[] = [];
    const live = new LiveEngine({ indexDir: dir, initial, log: (line) => log.push(line), graceMs: 0 });
    try {
      const serving = initial.index.buildDir;
      // A new build beside the old one, whole by its checksums but pointing outside itself, made current.
      const next = join(dir, 'build-29991231T000000000Z-1-0badf00d');
      cpSync(serving, next, { recursive: true });
      await withLongDocument(next);
      writeFileSync(join(dir, 'CURRENT'), 'build-29991231T000000000Z-1-0badf00d\n');
      expect(await live.reload()).toBe(false);
      expect(live.current.index.buildDir).toBe(serving);
      expect(log).toHaveLength(1);
      expect(JSON.parse(log[0]!)).toMatchObject({
        event: 'reload-refused',
        error: expect.stringMatching(/sections\.bin refers outside the index \(document 0 claims/),
      });
      expect((await live.current.search('partial refund'))[0]?.path).toBe('refunds.md');
    } finally {
      await live.close();
    }
  });
});
