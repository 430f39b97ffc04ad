import { type BigIntStats, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../cache-file.js';

/**
 * Digests of a model folder's files, remembered in a hidden file inside it and trusted while
 * every file they cover keeps its stat signature (size, inode, mtime and ctime in nanoseconds).
 * Hashing the default model's 60 MB twice cost more than the rest of a cold start. Any write to a
 * file changes its ctime, which no tool can set back, so a changed file is always hashed again.
 * A folder that cannot be written (a read-only image layer) just hashes every time.
 */
export const DIGEST_CACHE_FILE = '.svc-docs-digests.json';

interface CacheEntry {
  signature: string;
  digest: string;
}

/** `compute()`, or the digest it gave last time for the same `key` while `files` are unchanged. */
export function cachedDigest(folder: string, key: string, files: readonly string[], compute: () => string): string {
  const signature = signatureOf(folder, files);
  const file = join(folder, DIGEST_CACHE_FILE);
  const hit = readCache(file)[key];
  if (signature !== undefined && hit?.signature === signature) return hit.digest;
  const digest = compute();
  if (signature !== undefined)
    writeCacheFile(file, JSON.stringify({ ...readCache(file), [key]: { signature, digest } }));
  return digest;
}

/** What a write to a file always changes: size, inode, mtime and ctime in nanoseconds. */
export function statSignature(stat: BigIntStats): string {
  return `${stat.size}\0${stat.ino}\0${stat.mtimeNs}\0${stat.ctimeNs}`;
}

/** The files' relative paths and stat signatures; undefined when one cannot be read. */
function signatureOf(folder: string, files: readonly string[]): string | undefined {
  try {
    return files.map((path) => `${path}\0${statSignature(statSync(join(folder, path), { bigint: true }))}`).join('\n');
  } catch {
    return undefined;
  }
}

function readCache(file: string): Record<string, CacheEntry | undefined> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, CacheEntry>) : {};
  } catch {
    return {};
  }
}
