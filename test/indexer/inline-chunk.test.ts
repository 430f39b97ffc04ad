import { afterEach, describe, expect, it } from 'vitest';
import {
  BoundedChunker,
  type Chunker,
  closeIdleChunker,
  keptChunker,
  returnChunker,
} from '../../indexer/parse/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { chunkMarkdown, DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { INLINE_PARSE_LIMITS, parsesInline } from '../../indexer/parse/chunk-corpus.js';
import { InlineChunker } from '../../indexer/parse/inline-chunk.js';
import { readIndex } from '../../src/index/open-index.js';
import { readBuildLexical } from '../../src/index/read-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

/**
 * A small change set is parsed on the calling thread (no worker started), still within the
 * per-file time limit; a large one goes to the parser worker.
 */

/** Nested brackets: the parser takes about 27 s over 100 KB of them. */
const BRACKETS = '['.repeat(50_000) + ']'.repeat(50_000);

/** For a parse the watchdog can only stop for running over: a few lines. */
const noWorker = (): Chunker => {
  throw new Error('no parse here should need the worker');
};

afterEach(async () => {
  await closeIdleChunker();
});

describe('parsing on the calling thread', () => {
  it('chunks as the worker does', async () => {
    const worker = new BoundedChunker(60_000);
    try {
      for (const source of Object.values(SAMPLE_CORPUS)) {
        const inline = await new InlineChunker(60_000, noWorker).chunk(
          { path: 'page.md', source },
          DEFAULT_CHUNK_OPTIONS,
        );
        expect(inline).toEqual({ ok: true, doc: chunkMarkdown(source, DEFAULT_CHUNK_OPTIONS) });
        expect(inline).toEqual(await worker.chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS));
      }
    } finally {
      await worker.close();
    }
  });

  it("leaves out a document over the parser's heap limit in one line, and parses the next on a new worker (issue 40)", async () => {
    // 64 MB, not less: loading the parser alone takes most of 16 MB, and a new worker at 16 MB ran
    // out of memory on a three-line document (a CI run).
    const worker = new BoundedChunker(60_000, 64);
    try {
      // Some 40,000 list items: far more than 64 MB of syntax tree.
      const big = Array.from({ length: 40_000 }, (_, i) => `- item ${i} with *some* \`code\` and [a link](x${i})`).join(
        '\n',
      );
      expect(await worker.chunk({ path: 'big.md', source: big }, DEFAULT_CHUNK_OPTIONS)).toEqual({
        ok: false,
        reason: 'error',
        error: "over the parser's memory limit of 64 MB",
      });
      const next = await worker.chunk({ path: 'after.md', source: '# After\n\nParsed.\n' }, DEFAULT_CHUNK_OPTIONS);
      expect(next).toEqual({ ok: true, doc: chunkMarkdown('# After\n\nParsed.\n', DEFAULT_CHUNK_OPTIONS) });
    } finally {
      await worker.close();
    }
  });

  it('stops a parse at the time limit, and parses the next document', async () => {
    // On a busy machine the stopped parse runs again on the worker, which stops it too.
    const worker = new BoundedChunker(300);
    try {
      const chunker = new InlineChunker(300, () => worker);
      expect(await chunker.chunk({ path: 'brackets.md', source: BRACKETS }, DEFAULT_CHUNK_OPTIONS)).toEqual({
        ok: false,
        reason: 'timeout',
      });
      const next = await chunker.chunk({ path: 'after.md', source: '# After\n\nParsed.\n' }, DEFAULT_CHUNK_OPTIONS);
      expect(next).toEqual({ ok: true, doc: chunkMarkdown('# After\n\nParsed.\n', DEFAULT_CHUNK_OPTIONS) });
    } finally {
      await worker.close();
    }
  });

  it('takes a limit set in seconds however it converts: fractional or beyond what a timer holds', async () => {
    const source = '# Limits\n\nParsed within any limit.\n';
    const parsed = { ok: true, doc: chunkMarkdown(source, DEFAULT_CHUNK_OPTIONS) };
    for (const limitMs of [1500.5, 1e13]) {
      expect(
        await new InlineChunker(limitMs, noWorker).chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS),
      ).toEqual(parsed);
      // A timer set beyond 2^31 - 1 ms fires at once: the worker stopped every parse after 1 ms.
      const worker = new BoundedChunker(limitMs);
      try {
        expect(await worker.chunk({ path: 'page.md', source }, DEFAULT_CHUNK_OPTIONS)).toEqual(parsed);
      } finally {
        await worker.close();
      }
    }
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
  it('starts no parser worker for a small change set', async () => {
    await closeIdleChunker();
    const summary = await buildIndex({
      corpusDirs: [writeCorpus(SAMPLE_CORPUS)],
      outDir: tempDir('index'),
      vectorCacheDir: tempDir('vectors'),
    });
    // A build hands the worker it used back for the next build: none was started.
    expect(keptChunker(60_000)).toBeUndefined();
    expect(summary.documentsParsed).toBe(Object.keys(SAMPLE_CORPUS).length);
  });

  it('indexes a file over the time limit as plain text, as the worker would', async () => {
    const log: string[] = [];
    const summary = await buildIndex({
      corpusDirs: [writeCorpus({ ...SAMPLE_CORPUS, 'kb/brackets.md': BRACKETS })],
      outDir: tempDir('index'),
      vectorCacheDir: tempDir('vectors'),
      limits: { parseTimeoutMs: 500 },
      log: (line) => log.push(line),
    });
    expect(summary.skipped).toEqual([]);
    expect(summary.plainText).toEqual(['kb/brackets.md']);
    expect(log).toContain(
      'warning: kb/brackets.md could not be parsed as Markdown (parsing it took over 0.5 s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS); indexed as plain text',
    );
    expect(summary.documentsParsed).toBe(Object.keys(SAMPLE_CORPUS).length + 1);
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
    expect(incremental.sections.slice()).toEqual(scratch.sections.slice());
    const lexical = (index: typeof incremental) => readBuildLexical(index.buildDir, index.manifest);
    expect(await lexical(incremental)).toEqual(await lexical(scratch));
  });
});
