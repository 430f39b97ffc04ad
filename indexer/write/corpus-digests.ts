import type { BigIntStats } from 'node:fs';
import { join, sep } from 'node:path';
import { statSignature } from '../../src/embedding/digest-cache.js';
import { readKeyedCache, writeKeyedCache } from './keyed-cache.js';
import { vectorCacheDirOf } from './vector-cache.js';

/**
 * The sha256 of each corpus file, remembered between builds by its stat signature (size, inode,
 * mtime and ctime in nanoseconds), as src/embedding/digest-cache.ts does for model files: a
 * reindex reads and hashes only the files that changed. Reading and hashing every page was
 * ~50 ms of a one-file reindex of the Argo CD docs (455 pages), and grows with the corpus.
 *
 * Any write to a file changes its ctime, which no tool can set back, so an edit is seen even when
 * it keeps the size and the mtime. One race remains: ctime is only as fine as the kernel's clock
 * tick, so a file written again within the tick of the write before, after it was hashed, would
 * keep every field. A digest is therefore trusted only when the file's last change is older than
 * its hashing by RACY_MARGIN_MS (git's "racily clean" rule); a younger one is hashed again.
 *
 * It is only a cache: kept beside the vector cache, a missing or damaged file is an empty cache,
 * and one that cannot be written leaves every build reading every file, as before.
 */
export const CORPUS_DIGESTS_FILE = 'corpus-digests.json';

/** 2: each entry also holds the file's traits (page-traits.ts), so an unchanged page need not be read. */
// 3: traits also see mdBook includes, so traits remembered by format 2 are read again.
const FORMAT = 3;
export const RACY_MARGIN_MS = 2000;

/** Stat signature, sha256, when the file was hashed (ms since the epoch), and its traits. */
type Entry = [signature: string, hash: string, hashedAtMs: number, traits: string];

function isEntry(value: unknown): value is Entry {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string' &&
    typeof value[2] === 'number' &&
    typeof value[3] === 'string'
  );
}

export class CorpusDigests {
  private changed = false;

  /** The digests kept beside the vector cache (`vectorCacheDir`, or the default one). */
  static beside(vectorCacheDir: string | undefined): CorpusDigests {
    return CorpusDigests.open(join(vectorCacheDirOf(vectorCacheDir), CORPUS_DIGESTS_FILE));
  }

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  /** The digests remembered in `file` (an empty cache when it is missing or unreadable). */
  static open(file: string): CorpusDigests {
    return new CorpusDigests(file, readKeyedCache(file, FORMAT, 'files', isEntry));
  }

  /**
   * The file's hash and traits as recorded, while its stat signature holds and it was hashed well
   * after its last change.
   */
  lookup(path: string, stat: BigIntStats): { hash: string; traits: string } | undefined {
    const entry = this.entries.get(path);
    if (entry === undefined || entry[0] !== statSignature(stat)) return undefined;
    const changedAtMs = Number(stat.ctimeNs / 1_000_000n);
    return changedAtMs + RACY_MARGIN_MS < entry[2] ? { hash: entry[1], traits: entry[3] } : undefined;
  }

  /** Remembers `hash` (and `traits`) for the file as `stat` describes it, read at `hashedAtMs` or after. */
  record(path: string, stat: BigIntStats, hash: string, hashedAtMs: number, traits = ''): void {
    const entry = this.entries.get(path);
    const next: Entry = [statSignature(stat), hash, hashedAtMs, traits];
    if (entry?.every((value, i) => value === next[i])) return;
    this.entries.set(path, next);
    this.changed = true;
  }

  /**
   * Forgets the files below `dirs` that were not `seen` (removed or renamed since), keeping other
   * corpora's, and writes the cache if anything changed: to a temporary name, then renamed, so a
   * concurrent build reads the old cache or the new one. Failures are ignored.
   */
  save(dirs: readonly string[], seen: ReadonlySet<string>): void {
    for (const path of this.entries.keys())
      if (!seen.has(path) && dirs.some((dir) => path.startsWith(dir + sep))) {
        this.entries.delete(path);
        this.changed = true;
      }
    if (!this.changed) return;
    if (writeKeyedCache(this.file, FORMAT, 'files', this.entries)) this.changed = false;
  }
}
