import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a cache file whole or not at all: to a temporary name beside it (`<path>.<pid>.tmp`,
 * which clean-index.ts's removeDeadTempFiles recognises once its writer is dead), then renamed
 * over `path`, so a concurrent reader sees the old file or the new one. A cache that cannot be
 * written only makes the next run slower, so a failure is ignored (and reported as `false`).
 */
export function writeCacheFile(path: string, data: string | Uint8Array): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
