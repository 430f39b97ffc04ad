import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { BoundedChunker, PARSE_HEAP_MB } from '../../indexer/parse/bounded-chunk.js';
import { ChunkerPool, defaultParseWorkers, PARSE_POOL_HEAP_MB } from '../../indexer/parse/chunker-pool.js';

/**
 * The parse pool's workers share one heap budget (indexer/parse/chunker-pool.ts, issue 40): a
 * document over a worker's share parses again alone on the full heap, so what it parses to is what
 * one worker of PARSE_HEAP_MB makes of it, whatever the number of workers.
 */

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()));
});

/** Some 8,000 list items: more syntax tree than a worker of 24 MB holds, far less than 512 MB. */
const big = Array.from({ length: 8_000 }, (_, i) => `- item ${i} with *some* \`code\` and [a link](x${i})`).join('\n');
const docs = [
  { path: 'a.md', source: '# A\n\nFirst page.\n' },
  { path: 'big.md', source: `# Big\n\n${big}\n` },
  { path: 'b.md', source: '# B\n\nLast page.\n' },
];

describe('the parse pool', () => {
  it('gives its workers a share of one heap budget, and no more workers than the budget allows', () => {
    const two = new ChunkerPool(60_000, 2);
    closing.push(two);
    expect(two.heapMb * two.size).toBeLessThanOrEqual(PARSE_POOL_HEAP_MB);
    const many = new ChunkerPool(60_000, 64);
    closing.push(many);
    expect(many.heapMb * many.size).toBeLessThanOrEqual(PARSE_POOL_HEAP_MB);
    expect(many.heapMb).toBeGreaterThanOrEqual(64);
    expect(defaultParseWorkers() * Math.floor(PARSE_POOL_HEAP_MB / defaultParseWorkers())).toBeLessThanOrEqual(
      PARSE_POOL_HEAP_MB,
    );
  });

  it("parses a document over a worker's share again alone on the full heap: the outcomes of one worker", {
    timeout: 300_000,
  }, async () => {
    // A budget of 24 MB: one worker (a share is at least 64 MB, so no second one), of 24 MB.
    const pool = new ChunkerPool(120_000, 2, undefined, 24);
    closing.push(pool);
    expect([pool.size, pool.heapMb]).toEqual([1, 24]);
    const pooled = await Promise.all(docs.map((doc) => pool.chunk(doc, DEFAULT_CHUNK_OPTIONS)));
    const one = new BoundedChunker(120_000, PARSE_HEAP_MB);
    closing.push(one);
    const alone = [];
    for (const doc of docs) alone.push(await one.chunk(doc, DEFAULT_CHUNK_OPTIONS));
    expect(alone.every((outcome) => outcome.ok)).toBe(true);
    expect(pooled).toEqual(alone);
  });
});
