import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { BLOCK_SPLIT_FACTOR, MAX_SPLIT_OVERSHOOT } from '../../indexer/chunk/split-section.js';
import { DEFAULT_CHUNK_OPTIONS, parseMarkdown, plainSections } from '../../indexer/chunk/chunk.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { openEngine } from '../../src/search/engine.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * Markdown built to make the parser super-linear (nested brackets: 100 KB took 27 s; a deeply
 * nested list; thousands of list markers on one line), to overflow its stack (deep block
 * quotes), to make one giant section (an unclosed code fence) or simply to be huge. Each is
 * generated here. The indexer stops a parse at its time limit and skips an over-size file, with
 * one line naming the file; a page whose parse fails, whichever bound it meets first, is indexed
 * as plain text; everything else is indexed and searchable, and no section is unbounded. (How long these take is measured by bench/abuse/hostile-markdown.ts, not asserted here; the
 * limits as settings of `svc-docs index`: parse-limits-cli.test.ts.)
 */

/** Each line indented one level deeper than the one before. */
function staircaseList(bytes: number): string {
  let out = '';
  for (let depth = 0; out.length < bytes; depth++) out += `${'  '.repeat(depth)}- item\n`;
  return out;
}

const GOOD = {
  'kb/refunds.md':
    '# Refunds\n\nA refund returns money to the customer.\n\n## Partial refunds\n\nRefund part of an order.\n',
  'kb/webhooks.md': '# Webhooks\n\nVerify the signature of every webhook event.\n',
};
const SLOW = {
  'kb/brackets.md': '['.repeat(50_000) + ']'.repeat(50_000),
  'kb/nested-list.md': staircaseList(600_000),
  'kb/list-markers.md': '- '.repeat(12_500) + 'x\n',
};
const HOSTILE = {
  ...SLOW,
  'kb/deep-quote.md': '>'.repeat(20_000) + ' deep quote\n',
  'kb/unclosed-fence.md':
    '# Unclosed fence\n\nThe fence below is never closed.\n\n```sh\n' + 'echo line\n'.repeat(10_000),
  'kb/too-big.md': '# Big\n\n' + 'big words here\n'.repeat(200_000),
};

/**
 * The in-process build's parse limit, in CPU time. Short: the slow files exceed any limit, and each
 * burns all of it before it is stopped (three files at 3 s cost 9 s of CPU; at 1 s, 3 s).
 */
const PARSE_LIMIT_S = 1;

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.dispose();
});

describe('hostile Markdown in the corpus', () => {
  it('is stopped at the parse limit (plain text) or the size limit (left out), named in one line each, and the rest is indexed', {
    timeout: 300_000,
  }, async () => {
    const outDir = tempDir('hostile-index');
    const log: string[] = [];
    const summary = await buildIndex({
      corpusDirs: [writeCorpus({ ...GOOD, ...HOSTILE })],
      outDir,
      vectorCacheDir: tempDir('hostile-vectors'),
      embedder,
      limits: { parseTimeoutMs: PARSE_LIMIT_S * 1000, maxFileBytes: 2_000_000 },
      log: (line) => log.push(line),
    });

    for (const file of Object.keys(SLOW)) {
      expect(log.filter((l) => l.includes(file))).toEqual([
        `warning: ${file} could not be parsed as Markdown (parsing it took over ${PARSE_LIMIT_S} s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS); indexed as plain text`,
      ]);
    }
    expect(log.filter((l) => l.includes('too-big.md'))).toEqual([
      'skipped kb/too-big.md: 3,000,007 bytes is over the limit of 2,000,000 bytes per file (SVC_DOCS_MAX_FILE_BYTES)',
    ]);
    // Deep quotes overflow the parser's stack or reach the time limit first, depending on the
    // machine: one line either way, and one index.
    const quote = log.filter((l) => l.includes('deep-quote.md'));
    expect(quote).toHaveLength(1);
    expect(quote[0]).toMatch(
      /^warning: kb\/deep-quote\.md could not be parsed as Markdown \(.*\); indexed as plain text$/,
    );
    // Messages name files; they never quote them.
    expect(log.join('\n')).not.toMatch(/\[\[\[|echo line|big words|- - - /);
    expect(summary.skipped).toEqual([]);
    const plain = ['kb/deep-quote.md', ...Object.keys(SLOW)].sort();
    expect(summary.plainText.slice().sort()).toEqual(plain);

    const index = await readIndex(outDir);
    expect(index.documents.map((d) => d.path).sort()).toEqual(
      ['refunds.md', 'unclosed-fence.md', 'webhooks.md', ...plain.map((p) => p.slice('kb/'.length))].sort(),
    );
    for (const file of plain) {
      const doc = index.documents.find((d) => `kb/${d.path}` === file)!;
      const texts = index.sections.slice(doc.firstSection, doc.firstSection + doc.sectionCount).map((s) => s.text);
      expect(texts, file).toEqual(
        plainSections(HOSTILE[file as keyof typeof HOSTILE], DEFAULT_CHUNK_OPTIONS).map((s) => s.text),
      );
    }
    const bound = BLOCK_SPLIT_FACTOR * DEFAULT_CHUNK_OPTIONS.maxSectionChars + MAX_SPLIT_OVERSHOOT;
    expect(Math.max(...index.sections.slice().map((s) => s.text.length))).toBeLessThanOrEqual(bound);

    // The unclosed fence (100 KB, one block) is many sections, each a valid fenced block.
    const fence = index.documents.find((d) => d.path === 'unclosed-fence.md')!;
    expect(fence.sectionCount).toBeGreaterThan(40);
    const parts = index.sections.slice(fence.firstSection + 1, fence.firstSection + fence.sectionCount);
    for (const part of parts) expect(parseMarkdown(part.text).children.map((n) => n.type)).toEqual(['code']);

    const engine = await openEngine(outDir, { embedder });
    try {
      expect((await engine.search('partial refund'))[0]?.path).toBe('refunds.md');
      expect((await engine.search('webhook signature'))[0]?.path).toBe('webhooks.md');
    } finally {
      await engine.close();
    }
  });

  it('gives one index whichever bound a failing parse meets first: the time limit or the stack', {
    timeout: 300_000,
  }, async () => {
    // A tiny limit stops the deep quote's parse before it overflows the stack (or the heap); a large one lets it overflow.
    const build = async (parseTimeoutMs: number) => {
      const outDir = tempDir('deep-quote-index');
      const log: string[] = [];
      await buildIndex({
        corpusDirs: [writeCorpus({ 'kb/deep-quote.md': HOSTILE['kb/deep-quote.md'] })],
        outDir,
        vectorCacheDir: tempDir('deep-quote-vectors'),
        embedder,
        limits: { parseTimeoutMs },
        log: (line) => log.push(line),
      });
      const index = await readIndex(outDir);
      return { log, documents: index.documents, texts: index.sections.slice().map((s) => s.text) };
    };
    const timedOut = await build(1);
    const overflowed = await build(120_000);
    expect(timedOut.log).toEqual([
      'warning: kb/deep-quote.md could not be parsed as Markdown (parsing it took over 0.001 s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS); indexed as plain text',
    ]);
    // On the calling thread its stack overflows; on a parser process (a worker kept from an earlier build) its heap runs out.
    expect(overflowed.log).toHaveLength(1);
    expect(overflowed.log[0]).toMatch(
      /^warning: kb\/deep-quote\.md could not be parsed as Markdown \((RangeError|over the parser's memory limit of \d+ MB)\); indexed as plain text$/,
    );
    expect(timedOut.documents).toEqual(overflowed.documents);
    expect(timedOut.texts).toEqual(overflowed.texts);
  });
});
