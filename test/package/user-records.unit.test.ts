import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedUserRecords, snapshotUserRecords } from '../helpers/user-records.js';

/**
 * The check test/global-setup.ts runs after every `npm test`: the user's docs-gap records and
 * last-corpus.json in the checkout's cache folder are byte-identical to before. Here it is shown
 * to catch each way a test could touch them.
 */

const cache = mkdtempSync(join(tmpdir(), 'svc-docs-user-records-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

function userCache(): string {
  const dir = mkdtempSync(join(cache, 'cache-'));
  mkdirSync(join(dir, 'indexes', 'corpus-0123456789ab'), { recursive: true });
  writeFileSync(join(dir, 'indexes', 'corpus-0123456789ab', 'queries.jsonl'), '{"term":"rate limits"}\n');
  writeFileSync(join(dir, 'last-corpus.json'), '{"corpus":[],"index":"x","command":"serve","at":"t"}\n');
  return dir;
}

describe("the user's records, before and after a test run", () => {
  it('are unchanged when nothing wrote them', () => {
    const dir = userCache();
    const before = snapshotUserRecords(dir);
    expect(before.size).toBe(2);
    expect(changedUserRecords(dir, before)).toEqual([]);
  });

  it('name a record a search was appended to, a record created, and last-corpus.json rewritten', () => {
    const dir = userCache();
    const before = snapshotUserRecords(dir);
    const record = join(dir, 'indexes', 'corpus-0123456789ab', 'queries.jsonl');
    writeFileSync(record, '{"term":"rate limits"}\n{"term":"quokka enclosure"}\n');
    mkdirSync(join(dir, 'indexes', 'zoo-ba9876543210'));
    writeFileSync(join(dir, 'indexes', 'zoo-ba9876543210', 'queries.jsonl'), '{"term":"quokka"}\n');
    writeFileSync(join(dir, 'last-corpus.json'), '{"corpus":["/tmp/zoo"],"index":"y","command":"serve","at":"t"}\n');
    expect(changedUserRecords(dir, before)).toEqual([
      record,
      join(dir, 'indexes', 'zoo-ba9876543210', 'queries.jsonl'),
      join(dir, 'last-corpus.json'),
    ]);
  });

  it('name a record removed', () => {
    const dir = userCache();
    const before = snapshotUserRecords(dir);
    rmSync(join(dir, 'last-corpus.json'));
    expect(changedUserRecords(dir, before)).toEqual([join(dir, 'last-corpus.json')]);
  });
});
