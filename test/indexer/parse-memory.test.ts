import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { readIndex } from '../../src/index/open-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * A parse that runs out of the parser's heap costs its file only (issue 40): the build goes on,
 * the file is left out with one line naming it, and the rest is indexed. On a worker thread a
 * parse at its heap limit could abort the whole build instead ("FATAL ERROR: Reached heap limit",
 * whole process, signal 6: a hostile corpus at a 384 MB parser heap, and the 20 KB deep quote
 * below at 48 MB in one run of two); the parser now runs in a process of its own
 * (indexer/parse/parser-process.ts), where running out of heap always ends the process.
 */

afterEach(async () => {
  await closeIdleChunker();
});

/**
 * 30,000 HTML paragraphs: more than 64 MB of parse, within the element bound (html-page.ts) and
 * the 1 MiB file limit, and over the 256 KB a build parses on its own thread (with no heap limit).
 */
const PARAGRAPHS = `<html><body>${'<p>a b</p>'.repeat(30_000)}</body></html>`;

describe('a parse over the parser heap', () => {
  it('leaves its file out with one line naming it; the build goes on and indexes the rest', async () => {
    const lines: string[] = [];
    const outDir = tempDir('index');
    const summary = await buildIndex({
      corpusDirs: [
        writeCorpus({
          'kb/first.md': '# Rollbacks\n\nHow to roll an application back.\n',
          'kb/paragraphs.html': PARAGRAPHS,
          'kb/last.md': '# Sync waves\n\nThe order resources are applied in.\n',
        }),
      ],
      outDir,
      vectorCacheDir: tempDir('vectors'),
      parseWorkers: 2,
      limits: { parseHeapMb: 64 },
      log: (line) => lines.push(line),
    });
    expect(summary.skipped).toEqual(['kb/paragraphs.html']);
    const told = lines.filter((line) => line.includes('paragraphs.html'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("over the parser's memory limit of 64 MB");
    const index = await readIndex(outDir);
    expect(index.documents.map((d) => d.path)).toEqual(['first.md', 'last.md']);
    expect(
      index.sections
        .slice()
        .map((s) => s.text)
        .join('\n'),
    ).toContain('The order resources are applied in.');
  });
});
