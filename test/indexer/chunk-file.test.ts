import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedChunker } from '../../indexer/parse/bounded-chunk.js';
import { DEFAULT_CHUNK_OPTIONS, chunkMarkdown } from '../../indexer/chunk/chunk.js';
import { chunkFile, prepareFile } from '../../indexer/parse/chunk-file.js';
import { InlineChunker } from '../../indexer/parse/inline-chunk.js';

/** Both chunkers (the parser worker and the calling thread) load each format's converter as it is met. */

const PAGES = join(import.meta.dirname, 'formats', 'pages');
const FILES = [
  { path: 'guide/Conflicts.HTML', source: readFileSync(join(PAGES, 'html', 'conflicts.html'), 'utf8') },
  { path: 'notes.txt', source: 'Notes\n=====\n\nPlain words.\n' },
  {
    path: 'nb.ipynb',
    source: JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'markdown', source: '# Cells' }] }),
  },
  { path: 'book.adoc', source: '= Book\n\n== Part\n\nText.\n' },
];
const worker = new BoundedChunker(60_000);
afterAll(() => worker.close());

describe('chunking a file of each format', () => {
  it.each(['inline', 'worker'] as const)(
    'on the %s: each format as its converter makes it, titles from the files',
    async (where) => {
      const chunker = where === 'worker' ? worker : new InlineChunker(60_000, () => worker);
      const titles: (string | undefined)[] = [];
      for (const file of FILES) {
        const outcome = await chunker.chunk(file, DEFAULT_CHUNK_OPTIONS);
        if (!outcome.ok) throw new Error(`${file.path}: ${outcome.error}`);
        titles.push(outcome.doc.title);
        await prepareFile(file.path);
        expect(outcome.doc).toEqual(chunkFile(file, DEFAULT_CHUNK_OPTIONS));
      }
      expect(titles).toEqual(['Conflict resolution', 'Notes', 'Cells', 'Book']);
    },
  );

  it.each(['inline', 'worker'] as const)(
    'on the %s: a file that is not its format fails with what is wrong, quoting nothing',
    async (where) => {
      const chunker = where === 'worker' ? worker : new InlineChunker(60_000, () => worker);
      const outcome = await chunker.chunk({ path: 'bad.ipynb', source: 'SECRET {' }, DEFAULT_CHUNK_OPTIONS);
      expect(outcome).toEqual({ ok: false, reason: 'error', error: 'its text is not JSON' });
    },
  );

  it("on the worker: loading a format's converter is not counted in the first such file's parse limit", async () => {
    // Asciidoctor.js takes 0.4-1.1 s of CPU to load; the page itself parses in tens of ms.
    const fresh = new BoundedChunker(300);
    try {
      const outcome = await fresh.chunk(FILES[3]!, DEFAULT_CHUNK_OPTIONS);
      expect(outcome.ok).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads a file of no known extension as Markdown', () => {
    expect(chunkFile({ path: 'README', source: '# Hi\n\nthere\n' }, DEFAULT_CHUNK_OPTIONS)).toEqual(
      chunkMarkdown('# Hi\n\nthere\n'),
    );
  });
});
