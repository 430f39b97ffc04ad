import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cacheKey,
  MIN_NEW_SHARE,
  MIN_REWRITE_ENTRIES,
  SCANNED_LOOKUPS,
  VectorCache,
} from '../../indexer/write/vector-cache.js';
import { tempDir } from '../helpers/index-fixture.js';

/** The vector cache keeps what it was given across opens, and is written whole each time. */

const DIMS = 4;
const RECORD = 32 + DIMS * 4;
const vector = (x: number) => Float32Array.of(x, x + 1, x + 2, x + 3);

function cacheFile(dir: string): string {
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.bin'));
  return join(dir, file!);
}

describe('VectorCache', () => {
  it('keeps what each build adds, and reads all of it back', async () => {
    const dir = tempDir('vectors');
    const first = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    first.set(cacheKey('a'), vector(1));
    first.set(cacheKey('b'), vector(2));
    await first.save();
    expect(statSync(cacheFile(dir)).size).toBe(2 * RECORD);

    const second = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    second.set(cacheKey('c'), vector(3));
    await second.save();
    expect(statSync(cacheFile(dir)).size).toBe(3 * RECORD);

    const third = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    expect(third.size).toBe(3);
    expect(third.get(cacheKey('a'))).toEqual(vector(1));
    expect(third.get(cacheKey('c'))).toEqual(vector(3));
  });

  it('writes itself whole when another build saved in between, and starts afresh from a damaged file', async () => {
    const dir = tempDir('vectors');
    const seed = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    seed.set(cacheKey('seed'), vector(4));
    await seed.save();
    const a = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    const b = await VectorCache.open(dir, 'm'.repeat(64), DIMS);
    b.set(cacheKey('from b'), vector(5));
    await b.save();
    a.set(cacheKey('from a'), vector(6));
    a.set(cacheKey('also a'), vector(7));
    await a.save();
    // a's own three entries, whole: appending its two records to b's file would have made four (b's entry is lost, as with any cache two builds save at once).
    expect(statSync(cacheFile(dir)).size).toBe(3 * RECORD);
    expect((await VectorCache.open(dir, 'm'.repeat(64), DIMS)).get(cacheKey('also a'))).toEqual(vector(7));

    appendFileSync(cacheFile(dir), Buffer.alloc(RECORD / 2));
    const warnings: string[] = [];
    const after = await VectorCache.open(dir, 'm'.repeat(64), DIMS, (line) => warnings.push(line));
    expect(after.size).toBe(0);
    expect(warnings.join('\n')).toMatch(/is damaged/);
  });

  it('leaves a large cache as it is for a handful of new vectors, and writes it once enough are new', async () => {
    const dir = tempDir('vectors');
    const open = () => VectorCache.open(dir, 'm'.repeat(64), DIMS);
    const seed = await open();
    for (let i = 0; i < MIN_REWRITE_ENTRIES; i++) seed.set(cacheKey(`seed ${i}`), vector(i));
    await seed.save();
    const few = await open();
    few.set(cacheKey('one more'), vector(-1));
    await few.save();
    expect((await open()).size).toBe(MIN_REWRITE_ENTRIES);
    const many = await open();
    const enough = Math.ceil(MIN_NEW_SHARE * MIN_REWRITE_ENTRIES);
    for (let i = 0; i < enough; i++) many.set(cacheKey(`new ${i}`), vector(i));
    await many.save();
    expect((await open()).size).toBe(MIN_REWRITE_ENTRIES + enough);
  });

  it('answers the same before its keys are mapped (a scan of the records) as after, past the switch', async () => {
    const dir = tempDir('vectors');
    const open = () => VectorCache.open(dir, 'm'.repeat(64), DIMS);
    // Keys alike in their first bytes, so the scan must compare whole keys.
    const key = (i: number) => `${'ab'.repeat(8)}${i.toString(16).padStart(48, '0')}`;
    const seed = await open();
    for (let i = 0; i < 50; i++) seed.set(key(i), vector(i));
    await seed.save();
    // The same key twice in the file (two saves' records joined): the later record counts.
    appendFileSync(cacheFile(dir), readFileSync(cacheFile(dir)).subarray(0, RECORD));
    const lastRecord = Buffer.concat([Buffer.from(key(0), 'hex'), Buffer.from(vector(100).buffer)]);
    appendFileSync(cacheFile(dir), lastRecord);

    const mapped = await open();
    expect(mapped.size).toBe(50);
    const scanned = await open();
    const asked = [...Array.from({ length: SCANNED_LOOKUPS + 10 }, (_, i) => key(i)), key(999), cacheKey('absent')];
    for (const k of asked) expect(scanned.get(k), k).toEqual(mapped.get(k));
    expect(scanned.get(key(0))).toEqual(vector(100));
    expect(scanned.get(key(49))).toEqual(vector(49));
    expect([scanned.hits, scanned.misses]).toEqual([mapped.hits + 2, mapped.misses]);

    const fresh = await open();
    expect(fresh.get(key(7))).toEqual(vector(7));
    fresh.set(cacheKey('new'), vector(-2));
    expect(fresh.get(cacheKey('new'))).toEqual(vector(-2));
    expect(fresh.size).toBe(51);
  });
});
