import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { buildIndex, type BuildOptions } from '../../indexer/build.js';
import { CHUNKER_VERSION } from '../../indexer/chunk/chunk.js';
import { MAX_REMEMBERED, PARSE_FAILURES_FILE, ParseFailures } from '../../indexer/parse/parse-failures.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * A page whose parse ran over the limit is indexed as plain text, remembered by its content's
 * digest, and indexed as plain text by later builds without being parsed, named in each build's
 * output, until its content changes or the limit is raised.
 */

/** Nested brackets: the parser takes about 27 s of CPU over 100 KB of them. */
const BRACKETS = '['.repeat(50_000) + ']'.repeat(50_000);
const LIMIT_MS = 500;
const PARSED = `warning: kb/brackets.md could not be parsed as Markdown (parsing it took over 0.5 s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS); indexed as plain text`;
const REMEMBERED = `warning: kb/brackets.md could not be parsed as Markdown (an earlier build's parse of this content took over 0.5 s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS; it is parsed again once it changes or the limit is raised); indexed as plain text`;

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await closeIdleChunker();
  await embedder?.dispose();
});

function setUp(brackets = BRACKETS) {
  const corpus = writeCorpus({
    'kb/deploy.md': '# Deploy\n\nRun the flamingo rollout.\n',
    'kb/brackets.md': brackets,
  });
  const options: BuildOptions = {
    corpusDirs: [corpus],
    outDir: tempDir('failures-index'),
    vectorCacheDir: tempDir('failures-vectors'),
    embedder,
    limits: { parseTimeoutMs: LIMIT_MS },
  };
  const build = async (overrides: Partial<BuildOptions> = {}) => {
    const log: string[] = [];
    const summary = await buildIndex({ ...options, ...overrides, log: (line) => log.push(line) });
    return { summary, brackets: log.filter((line) => line.includes('brackets.md')) };
  };
  const edit = (path: string, text: string) => writeFileSync(join(corpus, 'kb', path), text);
  return { options, build, edit };
}

describe('a page over the parse limit', () => {
  it('is plain text in later builds without a parse, named each time, until it changes', async () => {
    const { options, build, edit } = setUp();
    const first = await build();
    expect(first.brackets).toEqual([PARSED]);
    expect(first.summary).toMatchObject({ skipped: [], plainText: ['kb/brackets.md'], remembered: [] });
    const brackets = async () => {
      const index = await readIndex(options.outDir);
      const doc = index.documents.find((d) => d.path === 'brackets.md')!;
      return index.sections.slice(doc.firstSection, doc.firstSection + doc.sectionCount).map((s) => s.text);
    };
    const asPlainText = await brackets();
    expect(asPlainText.join('')).toBe(BRACKETS);

    edit('deploy.md', '# Deploy\n\nRun the heron rollout.\n');
    const second = await build();
    // Never parsed: the line a parse over the limit gives is not there.
    expect(second.brackets).toEqual([REMEMBERED]);
    expect(second.summary).toMatchObject({
      documentsParsed: 1,
      skipped: [],
      plainText: ['kb/brackets.md'],
      remembered: ['kb/brackets.md'],
    });
    // The same index as the build that parsed it.
    expect(await brackets()).toEqual(asPlainText);

    // Nothing changed: the index is up to date, and the page is still named.
    const third = await build();
    expect(third.summary.unchanged).toBe(true);
    expect(third.brackets).toEqual([REMEMBERED]);
    expect(third.summary.remembered).toEqual(['kb/brackets.md']);

    edit('brackets.md', '# Brackets\n\nNo longer nested.\n');
    const fixed = await build();
    expect(fixed.brackets).toEqual([]);
    expect(fixed.summary.plainText).toEqual([]);
    expect((await readIndex(options.outDir)).documents.map((d) => d.path)).toEqual(['brackets.md', 'deploy.md']);
  }, 180_000);

  it('is parsed again under a higher limit, and remembered at the lower one still', async () => {
    const { build, edit } = setUp();
    await build();
    // Nothing else changed: neither the live build nor the plain text it gave the page is kept.
    const raised = await build({ limits: { parseTimeoutMs: 2 * LIMIT_MS } });
    expect(raised.summary.unchanged).toBe(false);
    expect(raised.brackets).toEqual([PARSED.replace('0.5 s', '1 s')]);
    edit('deploy.md', '# Deploy\n\nRun the pelican rollout.\n');
    const lowered = await build();
    expect(lowered.brackets).toEqual([REMEMBERED.replace('0.5 s', '1 s')]);
  }, 180_000);

  it('is forgotten once a raised limit parses it: the next build finds the index up to date', async () => {
    // Over a 1 ms limit, well within two minutes (a tenth of BRACKETS: the parse grows faster than its length).
    const { build } = setUp('['.repeat(5_000) + ']'.repeat(5_000));
    const first = await build({ limits: { parseTimeoutMs: 1 } });
    expect(first.summary.plainText).toContain('kb/brackets.md');
    const raised = await build({ limits: { parseTimeoutMs: 120_000 } });
    expect(raised.summary.plainText).toEqual([]);
    const again = await build({ limits: { parseTimeoutMs: 120_000 } });
    expect(again.summary.unchanged).toBe(true);
    expect(again.summary.documentsParsed).toBe(0);
  }, 300_000);
});

describe('the remembered failures file', () => {
  it('keeps the most recent MAX_REMEMBERED, and forgets what another chunker version or a damaged file recorded', () => {
    const file = join(tempDir('failures'), PARSE_FAILURES_FILE);
    const failures = ParseFailures.open(file);
    for (let i = 0; i <= MAX_REMEMBERED; i++) failures.record(`hash${i}`, 1000);
    failures.save();
    const reopened = ParseFailures.open(file);
    expect(reopened.ranOver('hash0', 1000)).toBeUndefined();
    expect(reopened.ranOver('hash1', 1000)).toBe(1000);
    expect(reopened.ranOver(`hash${MAX_REMEMBERED}`, 500)).toBe(1000);
    expect(reopened.ranOver(`hash${MAX_REMEMBERED}`, 1001)).toBeUndefined();

    const saved = JSON.parse(readFileSync(file, 'utf8')) as { pages: Record<string, number[]> };
    expect(Object.keys(saved.pages)).toHaveLength(MAX_REMEMBERED);
    writeFileSync(file, JSON.stringify({ format: 1, pages: { old: [1000, CHUNKER_VERSION - 1, 0] } }));
    expect(ParseFailures.open(file).ranOver('old', 1000)).toBeUndefined();
    writeFileSync(file, '{ damaged');
    expect(ParseFailures.open(file).ranOver('hash1', 1000)).toBeUndefined();
  });
});
