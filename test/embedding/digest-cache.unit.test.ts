import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedDigest, DIGEST_CACHE_FILE } from '../../src/embedding/digest-cache.js';
import { folderChecksum } from '../../src/embedding/embedder.js';
import { scratchDir } from './tiny-model.js';

describe('cachedDigest', () => {
  it('hashes once while the files are unchanged, and again after any write', () => {
    const dir = scratchDir('digests');
    writeFileSync(join(dir, 'a.bin'), 'first');
    let computed = 0;
    const digest = () => cachedDigest(dir, 'k', ['a.bin'], () => `digest ${++computed}`);
    expect(digest()).toBe('digest 1');
    expect(digest()).toBe('digest 1');
    expect(computed).toBe(1);
    // Same size, mtime set back: only the ctime tells, and it must.
    const { atime, mtime } = statSync(join(dir, 'a.bin'));
    writeFileSync(join(dir, 'a.bin'), 'other');
    utimesSync(join(dir, 'a.bin'), atime, mtime);
    expect(digest()).toBe('digest 2');
    expect(computed).toBe(2);
  });

  it('keeps separate keys apart and recomputes when a covered file is gone', () => {
    const dir = scratchDir('digests-keys');
    writeFileSync(join(dir, 'a.bin'), 'a');
    expect(cachedDigest(dir, 'one', ['a.bin'], () => 'x')).toBe('x');
    expect(cachedDigest(dir, 'two', ['a.bin'], () => 'y')).toBe('y');
    expect(cachedDigest(dir, 'one', ['a.bin'], () => 'z')).toBe('x');
    expect(cachedDigest(dir, 'one', ['missing.bin'], () => 'w')).toBe('w');
    expect(cachedDigest(dir, 'one', ['missing.bin'], () => 'v')).toBe('v');
  });

  it('is not part of the folder checksum it remembers', () => {
    const dir = scratchDir('digests-folder');
    writeFileSync(join(dir, 'config.json'), '{}');
    const before = folderChecksum(dir);
    writeFileSync(join(dir, DIGEST_CACHE_FILE), '{"folder":{"signature":"stale","digest":"forged"}}');
    expect(folderChecksum(dir)).toBe(before);
    writeFileSync(join(dir, 'config.json'), '{"changed":true}');
    expect(folderChecksum(dir)).not.toBe(before);
  });
});
