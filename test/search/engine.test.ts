import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { SearchInputError } from '../../src/search/search-input.js';
import { RELEVANCE_LABELS } from '../../src/search/types.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';

let engine: LoadedEngine;
let corpus: string;
let outDir: string;
let cacheDir: string;

beforeAll(async () => {
  corpus = writeCorpus({ ...SAMPLE_CORPUS });
  outDir = tempDir('index');
  cacheDir = tempDir('cache');
  await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir: cacheDir });
  engine = await openEngine(outDir);
});
afterAll(async () => engine?.close());

describe('search engine (real index, real model)', () => {
  it('finds the document that answers, with title, source and a labelled relevance', async () => {
    const [top] = await engine.search('skip duplicate event id');
    expect(top).toMatchObject({ title: 'Webhooks guide', source: 'platform', path: 'webhooks.md' });
    expect(RELEVANCE_LABELS).toContain(top!.relevance.label);
    expect(top!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('Idempotency');
  });

  it('finds identifiers whole and by their parts', async () => {
    expect((await engine.search('svc-account-id'))[0]!.path).toBe('triggers.md');
    expect((await engine.search('entityEventSequence'))[0]!.path).toBe('webhooks.md');
    expect((await engine.search('event sequence'))[0]!.path).toBe('webhooks.md');
    expect((await engine.search('client_credentials'))[0]!.path).toBe('tokens.md');
  });

  it('finds the page despite a typo, and says which term it took the typo for', async () => {
    const detailed = await engine.searchDetailed('entityEventSequnce');
    expect(detailed.results[0]!.path).toBe('webhooks.md');
    expect(detailed.results[0]!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('Ordering');
    expect(detailed.corrections).toContainEqual({ term: 'entityeventsequnce', correction: 'entityeventsequence' });
    const [top] = await engine.search('verify the signiture');
    expect(top!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('Verify the signature');
    // Correct spelling: nothing to correct.
    expect((await engine.searchDetailed('verify the signature')).corrections).toEqual([]);
  });

  it('returns one result per document, at most the limit', async () => {
    const results = await engine.search('webhooks token triggers topic', { limit: 3 });
    expect(results.length).toBeLessThanOrEqual(3);
    expect(new Set(results.map((r) => `${r.source}/${r.path}`)).size).toBe(results.length);
  });

  it('shows a window of at most 31 consecutive sections of the same document, centred on the best', async () => {
    const [top] = await engine.search('zanzibar');
    expect(top!.path).toBe('long.md');
    const best = top!.sections.findIndex((s) => s.isBest);
    expect(top!.sections).toHaveLength(31);
    expect(best).toBe(15);
    expect(top!.sections[best]!.headings.at(-1)).toBe('Topic 40');
    const positions = top!.sections.map((s) => s.position);
    expect(positions).toEqual(Array.from({ length: 31 }, (_, i) => positions[0]! + i));
    expect(top!.sections.every((s) => s.text.includes('Topic') || s.text.includes('Long Reference'))).toBe(true);
  });

  it('clamps the window at the start of a document', async () => {
    const [top] = await engine.search('Long Reference intro');
    expect(top!.path).toBe('long.md');
    expect(top!.sections[0]!.position).toBe(0);
    expect(top!.sections.length).toBeLessThanOrEqual(31);
  });

  it('ranks a query phrased in other words above unrelated pages', async () => {
    const results = await engine.search('how long does the credential stay usable');
    expect(results[0]!.path).toBe('tokens.md');
  });

  it('rejects an empty term with a clear error', async () => {
    await expect(engine.search('   ')).rejects.toThrow(SearchInputError);
    await expect(engine.search('')).rejects.toThrow(/search term is empty/);
  });

  it('answers a term nothing in the corpus matches with no results, not vector noise', async () => {
    expect(await engine.search('qqqxxzz')).toEqual([]);
    expect(await engine.search('qqqxxzz', { limit: 1 })).toEqual([]);
  });

  it('still returns vector-only results when asked for vector retrieval', async () => {
    const vectorEngine = await openEngine(outDir, { embedder: engine.embedder }, { retrieval: 'vector' });
    expect((await vectorEngine.search('qqqxxzz')).length).toBeGreaterThan(0);
  });

  it('reindexes after a one-file edit embedding only that file’s sections', async () => {
    writeFileSync(
      join(corpus, 'platform', 'tokens.md'),
      '# OAuth tokens\n\nTokens expire after about 4 hours.\n\n## Refresh\n\nRefresh per instance.\n',
    );
    const summary = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir: cacheDir });
    expect(summary.changes).toEqual({ added: [], changed: ['platform/tokens.md'], removed: [] });
    expect(summary.sectionsEmbedded).toBe(2);
    expect(summary.sectionsReused).toBe(summary.sections - 2);
    const fresh = await openEngine(outDir);
    try {
      expect((await fresh.search('refresh per instance'))[0]!.path).toBe('tokens.md');
    } finally {
      await fresh.close();
    }
  });
});
