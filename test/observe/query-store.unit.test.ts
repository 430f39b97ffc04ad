import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/observe/log.js';
import { queryStoreFiles } from '../../src/observe/query-record.js';
import { QueryStore, readQueryRecords } from '../../src/observe/query-store.js';
import { secretFree } from '../../src/observe/redacted-log.js';
import type { SearchOutcome } from '../../src/observe/search-outcome.js';

/** The query store: bounded, rotated, kept across restarts, quiet when it cannot write, free of secrets. */

const folder = () => mkdtempSync(join(tmpdir(), 'svc-docs-query-store-'));

function outcome(term: string, fields: Partial<SearchOutcome> = {}): SearchOutcome {
  return {
    term,
    results: 5,
    bestConfidence: 0.9,
    notCovered: false,
    chars: 9000,
    pages: ['kb/a.md'],
    ms: 3.5,
    ...fields,
  };
}

function store(indexDir: string, maxBytes = 64 * 1024, entries: LogEntry[] = [], secrets: string[] = []): QueryStore {
  return new QueryStore({
    indexDir,
    maxBytes,
    log: (entry) => entries.push(entry),
    secretFree: (sink) => secretFree(sink, secrets),
  });
}

describe('the query store', () => {
  it('keeps what it recorded across a restart, with the client name only', async () => {
    const dir = folder();
    const first = store(dir);
    first.record(outcome('webhook signature'), 'claude-code');
    first.record(
      outcome('banana bread', { results: 0, bestConfidence: undefined, notCovered: true, pages: [] }),
      undefined,
    );
    await first.flush();
    const second = store(dir);
    second.record(outcome('rate limits'), 'cursor');
    await second.flush();
    const records = await readQueryRecords(dir);
    expect(records.map((r) => [r.term, r.client, r.notCovered])).toEqual([
      ['webhook signature', 'claude-code', false],
      ['banana bread', undefined, true],
      ['rate limits', 'cursor', false],
    ]);
    expect(records[0]).toMatchObject({ results: 5, bestConfidence: 0.9, chars: 9000, pages: ['kb/a.md'], ms: 3.5 });
    expect(records[1]).not.toHaveProperty('bestConfidence');
    expect(Object.keys(records[0]!).sort()).toEqual(
      ['bestConfidence', 'chars', 'client', 'ms', 'notCovered', 'pages', 'results', 'term', 'time'].sort(),
    );
  });

  it('stays within its size, rotating into a second file, and reads both', async () => {
    const dir = folder();
    const maxBytes = 64 * 1024;
    const kept = store(dir, maxBytes);
    // About 300 bytes a record, 1,000 records: over four times the bound, written in bursts.
    for (let i = 0; i < 1000; i++) {
      kept.record(outcome(`question number ${i} ${'x'.repeat(150)}`), 'client');
      if (i % 97 === 0) await kept.flush();
    }
    await kept.flush();
    const { current, previous } = queryStoreFiles(dir);
    expect(statSync(current).size + statSync(previous).size).toBeLessThanOrEqual(maxBytes);
    for (const file of [current, previous]) expect(statSync(file).size).toBeLessThanOrEqual(maxBytes / 2);
    const records = await readQueryRecords(dir);
    // At least the newest half-bound of records is kept, in order, ending with the last one.
    expect(records.length).toBeGreaterThan(100);
    expect(records.at(-1)!.term).toMatch(/^question number 999 /);
    const numbers = records.map((r) => Number(/number (\d+)/.exec(r.term)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('reads records since a time and skips lines that are not records', async () => {
    const dir = folder();
    const { current } = queryStoreFiles(dir);
    const line = (time: string, term: string) =>
      JSON.stringify({ time, term, results: 1, notCovered: false, chars: 10, pages: [], ms: 1 });
    writeFileSync(
      current,
      [
        line('2026-11-01T00:00:00Z', 'old'),
        'not json',
        '{"term":"no time"}',
        line('2026-11-20T00:00:00Z', 'new'),
        '',
      ].join('\n'),
    );
    expect((await readQueryRecords(dir)).map((r) => r.term)).toEqual(['old', 'new']);
    expect((await readQueryRecords(dir, new Date('2026-11-10T00:00:00Z'))).map((r) => r.term)).toEqual(['new']);
    expect(await readQueryRecords(join(dir, 'missing'))).toEqual([]);
  });

  it('says once that it cannot write, then records nothing, without failing a search', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, '');
    const entries: LogEntry[] = [];
    // The "index folder" is a file: every write fails (ENOTDIR), as on a read-only volume.
    const broken = store(join(file, 'index'), 64 * 1024, entries);
    for (let i = 0; i < 5; i++) {
      broken.record(outcome(`q${i}`), undefined);
      await broken.flush();
    }
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'query-store-failed',
        error: expect.stringContaining('ENOTDIR'),
      }),
    ]);
  });

  it('never stores a secret a client put in a search term', async () => {
    const dir = folder();
    const token = 'store-token-0123456789abcdef';
    const kept = store(dir, 64 * 1024, [], [token]);
    kept.record(outcome(`webhook ${token}`), 'client');
    await kept.flush();
    const text = readFileSync(queryStoreFiles(dir).current, 'utf8');
    expect(text).not.toContain(token);
    expect(JSON.parse(text).term).toBe('webhook [redacted]');
  });
});
