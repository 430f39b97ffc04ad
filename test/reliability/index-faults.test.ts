import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { DEFAULT_MODEL_ID } from '../../src/embedding/default-model.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { openEngine } from '../../src/search/engine.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { buildModelWithBrokenTokenizer, buildTinyModel } from '../embedding/tiny-model.js';
import { INDEX_FORMAT_VERSION } from '../../src/index/manifest.js';
import { logEntries } from '../helpers/serve-log.js';
import { fixtureIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { resign, resignSections } from '../index/resign.js';
import { limited, linesOf, runCli as runCliNow, type CliRun } from './helpers.js';

/**
 * A damaged or foreign index, or a broken model, at the command line: `svc-docs serve --no-build`
 * refuses to start with exactly one line on stderr that names the file or folder and says what
 * to do, exits 1, and never listens. (The store-level errors are in test/index/read-index.test.ts;
 * a bad index appearing under a running server is refused while the old one keeps serving, in
 * test/serve/reload.test.ts; the loader's model errors are in test/embedding/embedder-errors.test.ts.)
 */

// The cases run concurrently; two CLI processes at a time keep a small machine responsive.
const slot = limited(2);
const runCli = (...args: Parameters<typeof runCliNow>): Promise<CliRun> => slot(() => runCliNow(...args));

const FILES = {
  'kb/refunds.md':
    '# Refunds\n\nA refund returns money to the customer.\n\n## Partial refunds\n\nRefund part of an order.\n',
  'kb/webhooks.md': '# Webhooks\n\nVerify the signature of every webhook event.\n',
};

let good: string;
beforeAll(async () => {
  // With the graph a sentence model's build writes (the static model's searches read none), so its damage shows.
  good = await fixtureIndex(FILES, { vectorGraph: true });
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

/** Runs `serve --no-build` on `index` and checks the refusal: exit 1, one stderr line, nothing served. */
async function expectRefusal(
  index: string,
  line: RegExp,
  env: Record<string, string> = {},
  todo: RegExp = /./,
): Promise<void> {
  const run = await runCli(['serve', '--no-build', '--index', index, '--port', '0'], { env, timeoutMs: 90_000 });
  expect(run.signal).toBeNull();
  expect(run.code).toBe(1);
  // Nothing served: the log holds the start and the failed start (the same line), never a listening server.
  const log = logEntries(run.stdout);
  expect(log.map((e) => e.event)).toEqual(['start', 'start-failed']);
  const lines = linesOf(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-docs: /);
  expect(lines[0]).toMatch(line);
  expect(lines[0]).toMatch(todo);
  expect(`svc-docs: ${String(log[1]!.error)}`).toBe(lines[0]);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** What to do, for an index: rebuild it. */
const REBUILD = /run 'svc-docs index'/;

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
      'an HNSW graph with a damaged header under a valid checksum',
      (b) => resigned(b, 'vectors.hnsw', (d) => Buffer.concat([Buffer.alloc(64, 0xff), d.subarray(64)])),
      /vectors\.hnsw cannot be loaded/,
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

describe.concurrent('a missing or corrupt model: one line naming the folder and how to rebuild', () => {
  /** An index built with a small model folder (fast to build), and that folder. */
  async function indexWithFolderModel(): Promise<{ index: string; model: string }> {
    const model = buildTinyModel(join(tempDir('model'), 'tiny'));
    const index = tempDir('tiny-index');
    await buildIndex({ corpusDirs: [writeCorpus(FILES)], outDir: index, model, vectorCacheDir: tempDir('vectors') });
    return { index, model };
  }

  it('serve: the model file of the index is missing', async () => {
    const { index, model } = await indexWithFolderModel();
    unlinkSync(join(model, 'table.f32'));
    await expectRefusal(
      index,
      new RegExp(
        `the model folder ${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be loaded \\(table\\.f32 missing\\): .*export or download it again`,
      ),
    );
  });

  it('serve: the model file of the index is truncated', async () => {
    const { index, model } = await indexWithFolderModel();
    truncateSync(join(model, 'table.f32'), 200);
    await expectRefusal(
      index,
      new RegExp(
        `the model folder ${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be loaded \\(.+\\): .*export or download it again`,
      ),
    );
  });

  it('serve: the default model folder is broken though its checksums vouch for it', async () => {
    // A default-model folder whose provenance matches a broken tokenizer.json, so nothing
    // rebuilds it (a damaged default model is rebuilt on its own: test/embedding/model-folder.test.ts).
    const cache = tempDir('cache');
    const dir = join(cache, 'models', DEFAULT_MODEL_ID);
    buildModelWithBrokenTokenizer(dir);
    await expectRefusal(
      good,
      new RegExp(
        `the default model in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be loaded \\(.+\\): delete .* and run 'svc-docs index' to rebuild it`,
      ),
      {
        SVC_DOCS_CACHE_DIR: cache,
      },
    );
  });

  it('index: a broken model folder is refused in one line and the previous index stays current and loadable', async () => {
    const { index, model } = await indexWithFolderModel();
    const before = await currentBuildDir(index);
    writeFileSync(join(model, 'tokenizer.json'), '{"version": "1.0", "model": ');
    const corpus = writeCorpus({ ...FILES, 'kb/new.md': '# New page\n\nFresh content.\n' });
    const run = await runCli(
      ['index', '--corpus', corpus, '--out', index, '--model', model, '--vector-cache', tempDir('vectors')],
      { timeoutMs: 90_000 },
    );
    expect(run.code).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^svc-docs: the model folder ${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be loaded \\(tokenizer\\.json is not valid JSON`,
      ),
    );
    expect(await currentBuildDir(index)).toBe(before);
    expect((await readIndex(index)).documents.map((d) => d.path)).toEqual(['refunds.md', 'webhooks.md']);
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
