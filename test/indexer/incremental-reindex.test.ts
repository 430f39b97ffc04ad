import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { KeptBuild } from '../../indexer/reindex/kept-build.js';
import { INDEX_FILES } from '../../src/index/format.js';
import { currentBuildDir, readBuildLexical } from '../../src/index/read-index.js';
import { readIndex, type LoadedIndex } from '../../src/index/open-index.js';
import { ExactVectorIndex, type HnswVectorIndex } from '../../src/index/vector-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * A reindex carries the previous build's postings and HNSW graph over and changes only what the
 * edit touched; what it writes must be what a full build of the edited corpus writes (every file
 * byte for byte but the graph, whose shape may differ and whose answers may not). The static model's
 * searches never read the graph, so these builds ask for it (`vectorGraph`).
 */

/**
 * Pages of sections that each say something of their own: a graph over many equal vectors (the
 * sample corpus's long page) cannot reach every node, however it was built.
 */
const WORDS = (
  'river mountain lantern orchard harbor violin meadow glacier copper falcon tunnel velvet ' +
  'canyon ember lagoon marble quartz saddle thunder walnut beacon cactus dolphin feather ' +
  'granite hammock island jasmine kettle ladder magnet nectar oyster pepper quiver rocket ' +
  'spruce tulip umbrella vessel willow yarrow zephyr anchor bramble candle desert engine'
).split(' ');

function page(title: string, seed: number, sections: number): string {
  const word = (i: number) => WORDS[(seed * 31 + i * i * 7 + i * 3) % WORDS.length]!;
  const body = (s: number) => Array.from({ length: 12 }, (_, k) => word(s * 12 + k)).join(' ');
  return `# ${title}\n\n${body(0)}.\n${Array.from({ length: sections }, (_, s) => `\n## ${word(s)} ${word(s + 5)}\n\n${body(s + 1)}.\n`).join('')}`;
}

const CORPUS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 8 }, (_, p) => [`kb/page-${p}.md`, page(`Page ${p}`, p + 1, p === 7 ? 12 : 4)]),
);

const GRAPH_FILES: string[] = [INDEX_FILES.hnsw, INDEX_FILES.hnswLabels];
const GRAPH = { vectorGraph: true } as const;

type GraphedIndex = LoadedIndex & { hnsw: HnswVectorIndex };

async function readGraphed(indexDir: string): Promise<GraphedIndex> {
  const index = await readIndex(indexDir);
  if (index.hnsw === undefined) throw new Error(`${indexDir}: the build has no graph`);
  return { ...index, hnsw: index.hnsw };
}

function withoutGraph(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([file]) => !GRAPH_FILES.includes(file)));
}

/**
 * Reindexes `corpus` in `outDir` (starting from `keep`'s build when given), builds it from scratch
 * elsewhere, and checks they agree; returns the reindexed index.
 */
async function reindexMatchesFullBuild(
  corpus: string,
  outDir: string,
  vectorCacheDir: string,
  keep?: KeptBuild,
): Promise<GraphedIndex> {
  await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, keep, ...GRAPH });
  const fresh = tempDir('index');
  await buildIndex({ corpusDirs: [corpus], outDir: fresh, vectorCacheDir, ...GRAPH });
  const [incremental, scratch] = await Promise.all([readGraphed(outDir), readGraphed(fresh)]);
  expect(withoutGraph(incremental.manifest.files)).toEqual(withoutGraph(scratch.manifest.files));
  expect(incremental.sections.slice()).toEqual(scratch.sections.slice());
  const lexical = (index: LoadedIndex) => readBuildLexical(index.buildDir, index.manifest);
  expect(await lexical(incremental)).toEqual(await lexical(scratch));
  // The graph answers as exact search does (by score: sections of the long page share a vector, so ties fall either way).
  expect(incremental.hnsw.size).toBe(incremental.sections.length);
  expect([...incremental.hnsw.labels()].sort((a, b) => a - b)).toEqual(incremental.sections.slice().map((_, s) => s));
  const exact = new ExactVectorIndex(incremental.vectors);
  const { dims, data } = incremental.vectors;
  for (let s = 0; s < incremental.sections.length; s++) {
    const vector = data.subarray(s * dims, (s + 1) * dims);
    const [found, expected] = [incremental.hnsw.search(vector, 5), exact.search(vector, 5)];
    found.ids.forEach((id, i) => {
      // The slot map names the section whose vector the graph matched, and the best are found.
      expect(dot(vector, data.subarray(id * dims, (id + 1) * dims))).toBeCloseTo(found.scores[i]!, 5);
      expect(found.scores[i]).toBeCloseTo(expected.scores[i]!, 5);
    });
  }
  return incremental;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

const identity = (index: GraphedIndex) => index.hnsw.sectionOf.every((section, slot) => section === slot);

/** A fresh copy of CORPUS, built once: the starting point each test edits and reindexes. */
async function builtCorpus(keep?: KeptBuild): Promise<{ corpus: string; outDir: string; vectorCacheDir: string }> {
  const corpus = writeCorpus({ ...CORPUS });
  const outDir = tempDir('index');
  const vectorCacheDir = tempDir('vectors');
  await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, keep, ...GRAPH });
  return { corpus, outDir, vectorCacheDir };
}

describe('incremental reindex', () => {
  it('after an edit, an added file and a removed one, writes what a full build writes, with the graph updated in place', async () => {
    const { corpus, outDir, vectorCacheDir } = await builtCorpus();
    // page-0 comes first: the new section renumbers every section after it.
    appendFileSync(join(corpus, 'kb', 'page-0.md'), '\n## Stdio\n\nOr start the server over stdio.\n');
    writeFileSync(join(corpus, 'kb', 'page-3a.md'), page('Added', 40, 3));
    const edit = (name: string, change: (text: string) => string) =>
      writeFileSync(join(corpus, 'kb', name), change(readFileSync(join(corpus, 'kb', name), 'utf8')));
    // Within a page: a section inserted before the others, one reworded, and two swapped.
    const sections = (text: string) => text.split('\n## ');
    edit('page-4.md', (text) => {
      const parts = sections(text);
      parts[3] = parts[3]!.replace('\n\n', '\n\nReworded ');
      return parts.join('\n## ');
    });
    edit('page-4.md', (text) => text.replace(/\n## /, '\n## Inserted\n\nA new paragraph.\n\n## '));
    edit('page-6.md', (text) => {
      const [head, ...parts] = sections(text);
      return [head, parts[2], parts[1], parts[0], ...parts.slice(3)].join('\n## ');
    });
    rmSync(join(corpus, 'kb', 'page-5.md'));
    const index = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir);
    // Carried, not rebuilt: the slots keep their old vectors under new section numbers.
    expect(identity(index)).toBe(false);
    expect(index.hnsw.sectionOf.length).toBe(index.sections.length);
  });

  it('fills the slots of removed sections before it adds slots', async () => {
    const { corpus, outDir, vectorCacheDir } = await builtCorpus();
    // Five sections go and one comes: four slots stay empty (under a tenth of the graph).
    rmSync(join(corpus, 'kb', 'page-2.md'));
    appendFileSync(join(corpus, 'kb', 'page-6.md'), '\n## Later\n\nOne more section.\n');
    const removed = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir);
    expect(removed.hnsw.sectionOf).toContain(-1);
    expect(removed.hnsw.sectionOf.length).toBe(removed.sections.length + 4);
    writeFileSync(join(corpus, 'kb', 'page-9.md'), page('Again', 50, 4));
    const added = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir);
    expect(added.hnsw.sectionOf).not.toContain(-1);
    expect(added.hnsw.sectionOf.length).toBe(added.sections.length);
  });

  it('builds the graph afresh when too many of its slots would stay empty', async () => {
    const { corpus, outDir, vectorCacheDir } = await builtCorpus();
    // page-7 holds 13 of the 48 sections.
    rmSync(join(corpus, 'kb', 'page-7.md'));
    const index = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir);
    expect(identity(index)).toBe(true);
  });

  it('starts from the build it kept in memory (serve --watch): what a full build writes, edit after edit, without reading it back', async () => {
    const keep = new KeptBuild();
    const { corpus, outDir, vectorCacheDir } = await builtCorpus(keep);
    // Damage the live build's graph on disk: a reindex that read it back would find it unusable
    // and build a fresh graph (slot = section); one that starts from the kept build carries it.
    writeFileSync(join((await currentBuildDir(outDir))!, INDEX_FILES.hnsw), 'not a graph');
    appendFileSync(join(corpus, 'kb', 'page-0.md'), '\n## Stdio\n\nOr start the server over stdio.\n');
    const first = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir, keep);
    expect(identity(first)).toBe(false);
    rmSync(join(corpus, 'kb', 'page-2.md'));
    writeFileSync(join(corpus, 'kb', 'page-3a.md'), page('Added', 40, 3));
    const second = await reindexMatchesFullBuild(corpus, outDir, vectorCacheDir, keep);
    expect(second.hnsw.sectionOf).toContain(-1);
  });

  it('hands a kept build out once, and never once another writer has switched CURRENT', async () => {
    const keep = new KeptBuild();
    const { corpus, outDir, vectorCacheDir } = await builtCorpus(keep);
    const live = await currentBuildDir(outDir);
    expect((await keep.take(outDir))?.previous.buildDir).toBe(live);
    // Taken: a build that fails after updating the graph in place must not leave it to the next.
    expect(await keep.take(outDir)).toBeUndefined();
    appendFileSync(join(corpus, 'kb', 'page-0.md'), '\n## Kept\n\nThe kept reindexer wrote this.\n');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, keep, ...GRAPH });
    const kept = await currentBuildDir(outDir);
    expect(kept).not.toBe(live);
    appendFileSync(join(corpus, 'kb', 'page-1.md'), '\n## Elsewhere\n\nA one-shot build wrote this.\n');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, ...GRAPH });
    expect(await currentBuildDir(outDir)).not.toBe(kept);
    expect(await keep.take(outDir)).toBeUndefined();
  });

  it('writes no graph for the static model unless asked, and asking for one builds again', async () => {
    const corpus = writeCorpus({ ...CORPUS });
    const [outDir, vectorCacheDir] = [tempDir('index'), tempDir('vectors')];
    const plain = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(Object.keys((await readIndex(outDir)).manifest.files)).not.toContain(INDEX_FILES.hnsw);
    expect((await readIndex(outDir)).hnsw).toBeUndefined();
    expect((await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir })).unchanged).toBe(true);
    const graphed = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, ...GRAPH });
    expect(graphed.unchanged).toBe(false);
    expect((await readGraphed(outDir)).hnsw.size).toBe(plain.sections);
    // And back: a build without the graph is not the one with it.
    expect((await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir })).unchanged).toBe(false);
  });
});
