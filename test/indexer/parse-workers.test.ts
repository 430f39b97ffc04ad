import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleChunker, keptChunker } from '../../indexer/parse/bounded-chunk.js';
import { type BuildOptions, buildIndex } from '../../indexer/build.js';
import { INLINE_PARSE_LIMITS, parsesInline } from '../../indexer/parse/chunk-corpus.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * A build parses a large change set on several workers at once (indexer/parse/chunker-pool.ts); the
 * index must not show it. The first page is many times larger than the rest, so with several
 * workers the small pages finish parsing long before it: an index that took the sections in the
 * order parses finish would put the first page's sections last.
 */

afterEach(async () => {
  await closeIdleChunker();
});

const sentence = (p: number, s: number, k: number) =>
  `Page ${p} part ${s} says word${(p * 7 + s + k) % 97} and term${(p + s * 3 + k) % 89}.`;
const part = (p: number, s: number) => Array.from({ length: 6 }, (_, k) => sentence(p, s, k)).join(' ');
const page = (p: number, parts: number) =>
  `# Page ${p}\n\n${Array.from({ length: parts }, (_, s) => `## Part ${s} of page ${p}\n\n${part(p, s)}\n`).join('\n')}`;

/** Every file of a build folder, by its path in the folder. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}

/** The manifest says when it was built; everything else in it must match. */
function withoutBuildTime(manifest: Buffer): string {
  const parsed = JSON.parse(manifest.toString('utf8')) as Record<string, unknown>;
  delete parsed.builtAt;
  return JSON.stringify(parsed);
}

/** Every file of two builds the same, byte for byte (the manifest's build time aside). */
function expectSameFiles(a: Map<string, Buffer>, b: Map<string, Buffer>, what: string): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [path, bytes] of a) {
    const other = b.get(path)!;
    if (path === 'manifest.json') expect(withoutBuildTime(other)).toBe(withoutBuildTime(bytes));
    else expect(other.equals(bytes), `${path} differs between ${what}`).toBe(true);
  }
}

/** A large first page, then small ones: parsed on a pool, not inline. */
function pooledCorpus(): string {
  const files: Record<string, string> = { 'kb/page-00.md': page(0, 600) };
  for (let p = 1; p < 48; p++) files[`kb/page-${String(p).padStart(2, '0')}.md`] = page(p, 4);
  expect(parsesInline(Object.values(files).map((source) => ({ source })))).toBe(false);
  expect(Object.keys(files).length).toBeGreaterThan(INLINE_PARSE_LIMITS.documents);
  return writeCorpus(files);
}

async function build(options: Partial<BuildOptions> & Pick<BuildOptions, 'corpusDirs'>) {
  const summary = await buildIndex({ outDir: tempDir('index'), vectorCacheDir: tempDir('vectors'), ...options });
  // The pool hands one worker back to be kept, whatever its size; this build's is ended here.
  await keptChunker(60_000)?.close();
  return { summary, files: filesOf(summary.buildDir) };
}

describe('a build on several parse workers', () => {
  it('writes the same index, byte for byte, as a build on one', async () => {
    const corpus = pooledCorpus();
    const one = await build({ corpusDirs: [corpus], parseWorkers: 1 });
    const many = await build({ corpusDirs: [corpus], parseWorkers: 3 });
    expect(many.summary.documentsParsed).toBe(48);
    expectSameFiles(one.files, many.files, '1 and 3 parse workers');
  });

  it('embeds sections while later documents are still being parsed, and writes what a build after the parse writes', async () => {
    const corpus = pooledCorpus();
    const events: string[] = [];
    const streamed = await build({
      corpusDirs: [corpus],
      parseWorkers: 3,
      batchSize: 8,
      onProgress: (p) => events.push(`${p.phase} ${p.done}/${p.total}`),
      afterBatch: () => void events.push('batch'),
    });
    // The first batch is embedded before the last document is taken in.
    expect(events.indexOf('batch')).toBeGreaterThan(-1);
    expect(events.indexOf('batch')).toBeLessThan(events.indexOf('index-documents 48/48'));
    // A build into a folder holding a build chunked alike embeds after the parse (it may carry
    // sections over: indexer/embed-and-write.ts); one of an unrelated page carries none over.
    const outDir = tempDir('index');
    await build({ corpusDirs: [writeCorpus({ 'kb/other.md': page(99, 2) })], outDir });
    const events2: string[] = [];
    const after = await build({
      corpusDirs: [corpus],
      outDir,
      onProgress: (p) => events2.push(p.phase),
    });
    expect(events2).toContain('embed-sections');
    expect(events2).not.toContain('index-documents');
    expect(after.summary.sectionsEmbedded).toBe(streamed.summary.sections);
    expectSameFiles(streamed.files, after.files, 'a streamed build and one after the parse');
  });

  it('refuses a pool of no workers with a clear error', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, p) => [`kb/p${p}.md`, page(p, 4)]));
    await expect(
      buildIndex({
        corpusDirs: [writeCorpus(files)],
        outDir: tempDir('index'),
        vectorCacheDir: tempDir('vectors'),
        parseWorkers: 0,
      }),
    ).rejects.toThrow('parse workers must be a whole number of at least 1, got 0');
  });
});
