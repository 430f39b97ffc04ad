import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKey, MIN_NEW_SHARE, MIN_REWRITE_ENTRIES, VectorCache } from '../../indexer/vector-cache.js';
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
});
