import { existsSync, readdirSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { IndexError } from '../../src/index/format.js';
import { INDEX_FORMAT_VERSION } from '../../src/index/manifest.js';
import { currentBuildDir } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { postingsSource } from '../../src/index/postings-source.js';
import { ModelMismatchError, openEngine } from '../../src/search/engine.js';
import { fixtureIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { resignPostings, resignSections } from './resign.js';

const files = {
  'kb/a.md': '---\ntitle: Alpha\n---\n# Alpha\nalpha text about refunds\n## Details\nmore alpha\n',
  'kb/b.md': '# Beta\nbeta text about webhooks\n',
};

async function copyOfIndex(): Promise<string> {
  return fixtureIndex(files);
}

type Edit = (build: string) => void | Promise<void>;

/** Reads every term's postings, as queries would: where a posting's section is checked. */
function readEveryPosting(index: Awaited<ReturnType<typeof readIndex>>): void {
  const source = postingsSource(index.lexical);
  for (let t = 0; t < source.termCount; t++) source.postings(t);
}

describe('references inside an index whose checksums are valid', () => {
  /** Refused at load, or (`whenRead`) when the postings holding it are read. */
  const cases: [string, Edit, RegExp, 'whenRead'?][] = [
    [
      'a document range past the last section',
      (b) => resignSections(b, (t) => void (t.documents[1]!.sectionCount = 999)),
      /sections\.bin refers outside the index \(document 1 claims sections \d+–\d+, expected a run starting at \d+ within \d+ sections\)/,
    ],
    [
      'a section of a document that does not exist',
      (b) => resignSections(b, (t) => void (t.sections[0]!.doc = 99)),
      /sections\.bin refers outside the index \(section 0 belongs to document 99, not to document 0/,
    ],
    [
      'overlapping documents',
      (b) => resignSections(b, (t) => void (t.documents[1]!.firstSection = 0)),
      /sections\.bin refers outside the index \(document 1 claims sections 0–/,
    ],
    [
      'a document path with a newline',
      (b) => resignSections(b, (t) => void (t.documents[0]!.path = 'a.md\nTitle: forged')),
      /sections\.bin refers outside the index \(document 0 has a control character/,
    ],
    [
      'a posting naming a section that does not exist',
      (b) => resignPostings(b, (d) => void (d.postingSections[0] = 9999)),
      /postings\.bin refers outside the index \(term 0 points at section 9999 of \d+\)/,
      'whenRead',
    ],
    [
      'a negative section in a posting',
      (b) => resignPostings(b, (d) => void (d.postingSections[1] = -1)),
      /postings\.bin refers outside the index \(term \d+ points at section -1 of \d+\)/,
      'whenRead',
    ],
    [
      'lexical statistics for another number of sections',
      (b) => resignPostings(b, (d) => void (d.sectionCount = 1)),
      /postings\.bin refers outside the index \(it indexes 1 sections but there are \d+\)/,
    ],
    [
      'a posting list running past the postings',
      (b) =>
        resignPostings(
          b,
          (d) => void (d.termStart = Uint32Array.from(d.termStart, (x, i) => (i === d.terms.length ? x + 5 : x))),
        ),
      /postings\.bin refers outside the index \(its posting lists do not cover its \d+ postings\)/,
    ],
    [
      'a posting list that ends before it starts',
      (b) => resignPostings(b, (d) => void ([d.termStart[1], d.termStart[2]] = [d.termStart[2]!, d.termStart[1]!])),
      /postings\.bin refers outside the index \(the posting list of term 1 ends before it starts\)/,
    ],
  ];
  for (const [name, edit, message, whenRead] of cases) {
    it(`refuses ${name}, naming the file`, async () => {
      const dir = await copyOfIndex();
      await edit((await currentBuildDir(dir))!);
      const read = whenRead ? readIndex(dir).then(readEveryPosting) : readIndex(dir);
      await expect(read).rejects.toThrow(IndexError);
      await expect(read).rejects.toThrow(message);
      await expect(read).rejects.toThrow(/: run 'svc-docs index' to rebuild it$/);
    });
  }
});

describe('index store', () => {
  it('writes a manifest that records model, corpus, parameters and checksums', async () => {
    const dir = await copyOfIndex();
    const index = await readIndex(dir);
    const m = index.manifest;
    expect(m.formatVersion).toBe(INDEX_FORMAT_VERSION);
    expect(m.corpus.documents).toBe(2);
    expect(m.corpus.knowledgeBases).toEqual(['kb']);
    expect(m.sections).toBe(index.sections.length);
    expect(m.model.dimensions).toBe(index.vectors.dims);
    expect(m.hnsw).toMatchObject({
      m: expect.any(Number),
      efConstruction: expect.any(Number),
      efSearch: expect.any(Number),
    });
    expect(Object.keys(m.files).sort()).toEqual(['postings.bin', 'profile.json', 'sections.bin', 'vectors.f32'].sort());
  });

  it('leaves the previous index intact and loadable when a build dies midway, and the next build succeeds', async () => {
    const corpus = writeCorpus(files);
    const outDir = tempDir('index');
    const vectorCacheDir = tempDir('cache');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    const before = await currentBuildDir(outDir);
    writeFileSync(
      join(corpus, 'kb', 'c.md'),
      '# Gamma\n' + Array.from({ length: 30 }, (_, i) => `## Part ${i}\ntext ${i}\n`).join(''),
    );
    await expect(
      buildIndex({
        corpusDirs: [corpus],
        outDir,
        vectorCacheDir,
        batchSize: 4,
        afterBatch: () => {
          throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    expect(await currentBuildDir(outDir)).toBe(before);
    expect((await readIndex(outDir)).documents.map((d) => d.path)).toEqual(['a.md', 'b.md']);
    const summary = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(summary.changes.added).toEqual(['kb/c.md']);
    expect((await readIndex(outDir)).documents).toHaveLength(3);
    expect(readdirSync(outDir).filter((e) => e.startsWith('.tmp'))).toEqual([]);
  });

  it('refuses a truncated data file, naming it', async () => {
    const dir = await copyOfIndex();
    const build = (await currentBuildDir(dir))!;
    truncateSync(join(build, 'vectors.f32'), 10);
    await expect(readIndex(dir)).rejects.toThrow(/vectors\.f32 is corrupt \(checksum mismatch\): run 'svc-docs index'/);
  });

  it('refuses a missing data file, naming it', async () => {
    const dir = await copyOfIndex();
    unlinkSync(join((await currentBuildDir(dir))!, 'postings.bin'));
    await expect(readIndex(dir)).rejects.toThrow(/postings\.bin is missing/);
  });

  it('refuses an index of another format version', async () => {
    const dir = await copyOfIndex();
    const path = join((await currentBuildDir(dir))!, 'manifest.json');
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), formatVersion: 99 }));
    await expect(readIndex(dir)).rejects.toThrow(
      new RegExp(`index format 99 but this svc-docs reads format ${INDEX_FORMAT_VERSION}:`),
    );
  });

  it('refuses a manifest that is not JSON or not a manifest', async () => {
    const dir = await copyOfIndex();
    const path = join((await currentBuildDir(dir))!, 'manifest.json');
    writeFileSync(path, '{ nope');
    await expect(readIndex(dir)).rejects.toThrow(/manifest\.json is not valid JSON/);
    writeFileSync(path, JSON.stringify({ formatVersion: INDEX_FORMAT_VERSION, model: 'x' }));
    await expect(readIndex(dir)).rejects.toThrow(/manifest\.json is malformed/);
  });

  it('says there is no index and how to build one', async () => {
    const empty = tempDir('empty');
    await expect(readIndex(empty)).rejects.toThrow(IndexError);
    await expect(readIndex(empty)).rejects.toThrow(/no index in .*run 'svc-docs index' first/);
    expect(existsSync(join(empty, 'CURRENT'))).toBe(false);
  });

  it('refuses to serve an index with a model other than the one configured', async () => {
    const dir = await copyOfIndex();
    await expect(openEngine(dir, { model: 'Xenova/all-MiniLM-L6-v2' })).rejects.toThrow(ModelMismatchError);
    await expect(openEngine(dir, { model: 'Xenova/all-MiniLM-L6-v2' })).rejects.toThrow(
      /was built with model svc-glove-sif-100d \(100 dims\)/,
    );
  });
});
