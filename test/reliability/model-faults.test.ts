import { readdirSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { DEFAULT_MODEL_ID } from '../../src/embedding/default-model.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { buildTinyBert } from '../embedding/tiny-bert.js';
import { buildModelWithBrokenTokenizer, buildTinyModel } from '../embedding/tiny-model.js';
import { fixtureIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { resign } from '../index/resign.js';
import { linesOf, runCli } from './helpers.js';
import { expectRefusal, FILES } from './serve-refusal.js';

/**
 * A missing, broken or damaged model at the command line: `svc-docs serve --no-build` and
 * `svc-docs index` refuse in one line naming the folder and what to do. (Damaged or foreign
 * indexes: test/reliability/index-faults.test.ts.)
 */

let good: string;
beforeAll(async () => {
  good = await fixtureIndex(FILES);
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

describe("a sentence model's HNSW graph, which its searches read", () => {
  it('is refused by its own load when its header is damaged under a valid checksum', async () => {
    const model = buildTinyBert(join(tempDir('model'), 'tiny-bert'));
    const index = tempDir('bert-index');
    await buildIndex({ corpusDirs: [writeCorpus(FILES)], outDir: index, model, vectorCacheDir: tempDir('vectors') });
    const build = join(index, readFileSync(join(index, 'CURRENT'), 'utf8').trim());
    // Written unasked: a sentence model's searches read the graph (search-policy.ts, searchesGraph).
    expect(readdirSync(build)).toContain('vectors.hnsw');
    const graph = readFileSync(join(build, 'vectors.hnsw'));
    resign(build, 'vectors.hnsw', Buffer.concat([Buffer.alloc(64, 0xff), graph.subarray(64)]));
    // hnswlib's own load refuses it: no header check of our own stands in front.
    await expectRefusal(
      index,
      /vectors\.hnsw cannot be loaded \(Hnswlib Error: Index seems to be corrupted or unsupported\)/,
    );
  });
});
