import { afterEach, describe, expect, it } from 'vitest';
import { BoundedChunker, closeIdleChunker, keptChunker, returnChunker } from '../../indexer/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { chunkMarkdown, DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk.js';
import { INLINE_PARSE_LIMITS, parsesInline } from '../../indexer/chunk-corpus.js';
import { InlineChunker } from '../../indexer/inline-chunk.js';
import { readIndex } from '../../src/index/read-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/**
 * A small change set is parsed on the calling thread (no worker started), still within the
 * per-file time limit; a large one goes to the parser worker.
 */

/** Nested brackets: the parser takes about 27 s over 100 KB of them. */
const BRACKETS = '['.repeat(50_000) + ']'.repeat(50_000);

afterEach(async () => {
  await closeIdleChunker();
});

describe('parsing on the calling thread', () => {
  it('chunks as the worker does', async () => {
    const worker = new BoundedChunker(60_000);
    try {
      for (const source of Object.values(SAMPLE_CORPUS)) {
        const inline = await new InlineChunker(60_000).chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS);
        expect(inline).toEqual({ ok: true, doc: chunkMarkdown(source, DEFAULT_CHUNK_OPTIONS) });
        expect(inline).toEqual(await worker.chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS));
      }
    } finally {
      await worker.close();
    }
  });

  it('stops a parse at the time limit, and parses the next document', async () => {
    const chunker = new InlineChunker(300);
    expect(await chunker.chunk({ path: 'brackets.md', source: BRACKETS }, DEFAULT_CHUNK_OPTIONS)).toEqual({
      ok: false,
      reason: 'timeout',
    });
    const next = await chunker.chunk({ path: 'after.md', source: '# After\n\nParsed.\n' }, DEFAULT_CHUNK_OPTIONS);
    expect(next).toEqual({ ok: true, doc: chunkMarkdown('# After\n\nParsed.\n', DEFAULT_CHUNK_OPTIONS) });
  });

  it('takes a limit set in seconds however it converts: fractional or beyond what a timer holds', async () => {
    const source = '# Limits\n\nParsed within any limit.\n';
    for (const limitMs of [1500.5, 1e13])
      expect(await new InlineChunker(limitMs).chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS)).toEqual({
        ok: true,
        doc: chunkMarkdown(source, DEFAULT_CHUNK_OPTIONS),
      });
  });

  it('is chosen for a few small files, the worker for many or large ones', () => {
    const doc = (chars: number) => ({ source: 'x'.repeat(chars) });
    expect(parsesInline([])).toBe(true);
    expect(parsesInline([doc(70_000)])).toBe(true);
    expect(parsesInline([doc(INLINE_PARSE_LIMITS.chars + 1)])).toBe(false);
    expect(parsesInline(Array.from({ length: INLINE_PARSE_LIMITS.documents }, () => doc(10)))).toBe(true);
    expect(parsesInline(Array.from({ length: INLINE_PARSE_LIMITS.documents + 1 }, () => doc(10)))).toBe(false);
  });
});

describe('a build', () => {
  it('starts no parser worker for a small change set, and leaves out a file over the time limit as the worker would', async () => {
    await closeIdleChunker();
    const log: string[] = [];
    const summary = await buildIndex({
      corpusDirs: [writeCorpus({ ...SAMPLE_CORPUS, 'kb/brackets.md': BRACKETS })],
      outDir: tempDir('index'),
      vectorCacheDir: tempDir('vectors'),
      limits: { parseTimeoutMs: 500 },
      log: (line) => log.push(line),
    });
    // A build hands the worker it used back for the next build: none was started.
    expect(keptChunker(500)).toBeUndefined();
    expect(summary.skipped).toEqual(['kb/brackets.md']);
    expect(log).toContain(
      'skipped kb/brackets.md: parsing it took over 0.5 s (SVC_DOCS_PARSE_TIMEOUT_SECONDS); the rest of the corpus is indexed',
    );
    expect(summary.documentsParsed).toBe(Object.keys(SAMPLE_CORPUS).length);
  });

  it('parses a large change set on the worker, and a one-file edit of it inline to the same index', async () => {
    // Over the inline limit: pages of distinct sections.
    const sentence = (p: number, s: number, k: number) =>
      `Page ${p} part ${s} says word${(p * 7 + s + k) % 97} and word${(p + s * 3 + k) % 89}.`;
    const part = (p: number, s: number) => Array.from({ length: 6 }, (_, k) => sentence(p, s, k)).join(' ');
    const page = (p: number, extra = '') =>
      `# Page ${p}\n\n${Array.from({ length: 20 }, (_, s) => `## Part ${s} of page ${p}\n\n${part(p, s)}\n`).join('\n')}${extra}`;
    const pages = Math.ceil((INLINE_PARSE_LIMITS.chars * 1.2) / page(0).length);
    const files = Object.fromEntries(Array.from({ length: pages }, (_, p) => [`kb/page-${p}.md`, page(p)]));
    expect(parsesInline(Object.values(files).map((source) => ({ source })))).toBe(false);
    const corpus = writeCorpus(files);
    const outDir = tempDir('index');
    const vectorCacheDir = tempDir('vectors');
    await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir });
    const worker = keptChunker(60_000);
    expect(worker).toBeInstanceOf(BoundedChunker);
    await worker!.close();

    const edited = writeCorpus({ ...files, 'kb/page-3.md': page(3, '\n## Added\n\nAn added part.\n') });
    // The edit in place: the index of `corpus` is rebuilt from the edited files.
    const reindexed = await buildIndex({ corpusDirs: [edited], outDir, vectorCacheDir });
    expect(reindexed.documentsParsed).toBe(1);
    expect(keptChunker(60_000)).toBeUndefined();
    const fresh = tempDir('index');
    await buildIndex({ corpusDirs: [edited], outDir: fresh, vectorCacheDir });
    const kept = keptChunker(60_000);
    expect(kept).toBeInstanceOf(BoundedChunker);
    returnChunker(kept!);
    const [incremental, scratch] = await Promise.all([readIndex(outDir), readIndex(fresh)]);
    expect(incremental.documents).toEqual(scratch.documents);
    expect(incremental.sections).toEqual(scratch.sections);
    expect(incremental.lexical).toEqual(scratch.lexical);
  });
});
