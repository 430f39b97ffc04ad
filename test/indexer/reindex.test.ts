import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { readIndex } from '../../src/index/open-index.js';
import { readBuildLexical } from '../../src/index/read-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/** A reindex reuses the sections of unchanged files, and the result is the index a fresh build makes. */

describe('reindex', () => {
  it('parses only the files that changed, and ends with the same sections as a build from scratch', async () => {
    const corpus = writeCorpus({ ...SAMPLE_CORPUS });
    const files = Object.keys(SAMPLE_CORPUS).length;
    const vectorCacheDir = tempDir('vectors');
    const outDir = tempDir('index');
    expect((await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir })).documentsParsed).toBe(files);

    appendFileSync(
      join(corpus, 'platform', 'tokens.md'),
      "\n## Refresh\n\nRefresh each instance's token before it expires.\n",
    );
    const again = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(again.documentsParsed).toBe(1);
    expect(again.changes.changed).toEqual(['platform/tokens.md']);

    const fresh = tempDir('index');
    await buildIndex({ corpusDirs: [corpus], outDir: fresh, vectorCacheDir });
    const [incremental, scratch] = await Promise.all([readIndex(outDir), readIndex(fresh)]);
    expect(incremental.documents).toEqual(scratch.documents);
    expect(incremental.sections.slice()).toEqual(scratch.sections.slice());
    const lexical = (index: typeof incremental) => readBuildLexical(index.buildDir, index.manifest);
    expect(await lexical(incremental)).toEqual(await lexical(scratch));
    expect(incremental.vectors.data).toEqual(scratch.vectors.data);
  });

  it('finds an unchanged corpus from the manifest alone: nothing parsed, embedded or written', async () => {
    const corpus = writeCorpus({ ...SAMPLE_CORPUS });
    const vectorCacheDir = tempDir('vectors');
    const outDir = tempDir('index');
    const first = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    const again = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(again).toMatchObject({
      unchanged: true,
      buildDir: first.buildDir,
      documentsParsed: 0,
      sectionsEmbedded: 0,
      sections: first.sections,
    });
    // A damaged live build is built again, not kept.
    const vectors = join(first.buildDir, 'vectors.f32');
    writeFileSync(
      vectors,
      readFileSync(vectors).map((b, i) => (i === 0 ? b ^ 0xff : b)),
    );
    const repaired = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(repaired.unchanged).toBe(false);
    expect(repaired.buildDir).not.toBe(first.buildDir);
    // Other settings make another index from the same files.
    const rechunked = await buildIndex({
      corpusDirs: [corpus],
      outDir,
      vectorCacheDir,
      chunk: { maxSectionChars: 300 },
    });
    expect(rechunked.unchanged).toBe(false);
    appendFileSync(join(corpus, 'platform', 'tokens.md'), '\nOne more line.\n');
    const edited = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, chunk: { maxSectionChars: 300 } });
    expect(edited).toMatchObject({ unchanged: false, documentsParsed: 1 });
  });

  it('parses every file again when the chunking changed', async () => {
    const corpus = writeCorpus({ ...SAMPLE_CORPUS });
    const vectorCacheDir = tempDir('vectors');
    const outDir = tempDir('index');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    const rechunked = await buildIndex({
      corpusDirs: [corpus],
      outDir,
      vectorCacheDir,
      chunk: { maxSectionChars: 300 },
    });
    expect(rechunked.documentsParsed).toBe(Object.keys(SAMPLE_CORPUS).length);
    expect((await readIndex(outDir)).manifest.chunking.maxSectionChars).toBe(300);
  });

  it("builds again when a knowledge base's published URL changes, parsing nothing", async () => {
    const corpus = writeCorpus({ ...SAMPLE_CORPUS });
    const vectorCacheDir = tempDir('vectors');
    const outDir = tempDir('index');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    writeFileSync(
      join(corpus, 'platform', 'kb.json'),
      JSON.stringify({ baseUrl: 'https://docs.example.org/platform/' }),
    );
    const again = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(again).toMatchObject({ unchanged: false, documentsParsed: 0, sectionsEmbedded: 0 });
    const { documents } = await readIndex(outDir);
    expect(documents.find((d) => d.kb === 'platform' && d.path === 'tokens.md')?.url).toBe(
      'https://docs.example.org/platform/tokens/',
    );
  });
});
