import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The user's own data in a checkout's cache folder that `npm test` must leave byte-identical:
 * the searches each index's server recorded (its docs-gap record) and the docs last served
 * (last-corpus.json). test/global-setup.ts takes a snapshot before the run and compares after it.
 */

/** Every such file present now. */
export function userRecordFiles(cacheDir: string): string[] {
  const files = [join(cacheDir, 'last-corpus.json')];
  const indexes = join(cacheDir, 'indexes');
  if (existsSync(indexes))
    for (const index of readdirSync(indexes))
      for (const name of ['queries.jsonl', 'queries.1.jsonl']) files.push(join(indexes, index, name));
  return files.filter((file) => existsSync(file));
}

/** Each file's sha256, by path. */
export function snapshotUserRecords(cacheDir: string): Map<string, string> {
  return new Map(userRecordFiles(cacheDir).map((file) => [file, digest(file)]));
}

/** The files written, created or removed since `before`. */
export function changedUserRecords(cacheDir: string, before: ReadonlyMap<string, string>): string[] {
  const after = snapshotUserRecords(cacheDir);
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

function digest(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'unreadable';
  }
}
