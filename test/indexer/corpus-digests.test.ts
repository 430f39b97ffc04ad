import { createHash } from 'node:crypto';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { CORPUS_DIGESTS_FILE, CorpusDigests, RACY_MARGIN_MS } from '../../indexer/write/corpus-digests.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { readIndex } from '../../src/index/open-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * Corpus files' digests remembered by stat signature: a file they vouch for is not read, and any
 * write to a file (even one that keeps its size and mtime) has it read and hashed again.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A digest no file has: when a load returns it, the load took it from the cache without reading. */
const REMEMBERED = 'f'.repeat(64);
/** An mtime that utimes sets exactly (a Date's milliseconds would round the file's nanoseconds). */
const WHOLE_SECOND = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

function corpusWithDigests(): { corpus: string; file: string; digestsFile: string } {
  const corpus = writeCorpus({ 'kb/a.md': '# Alpha\n\nFirst text.\n', 'kb/b.md': '# Beta\n\nSecond text.\n' });
  return { corpus, file: join(corpus, 'kb', 'a.md'), digestsFile: join(tempDir('digests'), CORPUS_DIGESTS_FILE) };
}

/** Records `hash` for `file` as hashed `afterChangeMs` after its last change, and saves it. */
function remember(digestsFile: string, corpus: string, file: string, hash: string, afterChangeMs: number): void {
  const digests = CorpusDigests.open(digestsFile);
  const stat = statSync(file, { bigint: true });
  digests.record(file, stat, hash, Number(stat.ctimeNs / 1_000_000n) + afterChangeMs);
  digests.save([corpus], new Set([file]));
}

function hashOf(corpus: string, digestsFile: string, path: string): { hash: string; source: string } {
  const doc = loadCorpus([corpus], { digests: CorpusDigests.open(digestsFile) }).find((d) => d.path === path)!;
  return { hash: doc.hash, source: doc.source };
}

describe('corpus digests', () => {
  it('take the place of reading a file hashed well after its last change, whose text is read only when asked for', () => {
    const { corpus, file, digestsFile } = corpusWithDigests();
    remember(digestsFile, corpus, file, REMEMBERED, RACY_MARGIN_MS + 1000);
    const doc = hashOf(corpus, digestsFile, 'a.md');
    expect(doc.hash).toBe(REMEMBERED);
    expect(doc.source).toBe('# Alpha\n\nFirst text.\n');
    expect(hashOf(corpus, digestsFile, 'b.md').hash).toBe(sha256('# Beta\n\nSecond text.\n'));
  });

  it('are not trusted for a file hashed within the clock tick margin of its last change', () => {
    const { corpus, file, digestsFile } = corpusWithDigests();
    remember(digestsFile, corpus, file, REMEMBERED, RACY_MARGIN_MS - 1000);
    expect(hashOf(corpus, digestsFile, 'a.md').hash).toBe(sha256('# Alpha\n\nFirst text.\n'));
  });

  it('see a write that keeps the size and sets the mtime back: the file is hashed again', () => {
    const { corpus, file, digestsFile } = corpusWithDigests();
    utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
    remember(digestsFile, corpus, file, REMEMBERED, RACY_MARGIN_MS + 1000);
    const before = statSync(file, { bigint: true });
    writeFileSync(file, '# Alpha\n\nFirst TEXT.\n');
    utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.ino, after.mtimeNs]).toEqual([before.size, before.ino, before.mtimeNs]);
    expect(hashOf(corpus, digestsFile, 'a.md').hash).toBe(sha256('# Alpha\n\nFirst TEXT.\n'));
  });

  it('are remembered by a load, and a damaged cache is an empty one', () => {
    const { corpus, file, digestsFile } = corpusWithDigests();
    loadCorpus([corpus], { digests: CorpusDigests.open(digestsFile) });
    const saved = JSON.parse(readFileSync(digestsFile, 'utf8')) as { files: Record<string, [string, string, number]> };
    expect(saved.files[file]![1]).toBe(sha256('# Alpha\n\nFirst text.\n'));
    expect(Object.keys(saved.files)).toHaveLength(2);
    writeFileSync(digestsFile, '{"format": 1, "files": {"x": [1, 2]}');
    expect(hashOf(corpus, digestsFile, 'a.md').hash).toBe(sha256('# Alpha\n\nFirst text.\n'));
  });

  it('keep a reindex exact when an edit keeps the size and the mtime', async () => {
    const { corpus, file } = corpusWithDigests();
    const outDir = tempDir('index');
    const vectorCacheDir = tempDir('vectors');
    // Files changed longer ago than the margin, so the first build's digests are trusted by the second.
    utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
    await new Promise((resolve) => setTimeout(resolve, RACY_MARGIN_MS + 200));
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('First', 'Zebra'));
    expect(statSync(file).size).toBe(before.length);
    utimesSync(file, WHOLE_SECOND, WHOLE_SECOND);
    expect(statSync(file).mtimeMs).toBe(WHOLE_SECOND.getTime());
    const summary = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    expect(summary.documentsParsed).toBe(1);
    const index = await readIndex(outDir);
    expect(index.sections.slice().some((s) => s.text.includes('Zebra'))).toBe(true);
  });
});
