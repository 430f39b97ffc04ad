import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from '../src/paths.js';
import { removeDeadTempFiles } from './clean-index.js';
import { writeDurably } from './write-index.js';

/**
 * Vectors already computed, keyed by the sha256 of the exact text embedded, one file per model
 * (by checksum), so a reindex embeds only what changed. It is only a cache: a damaged file is
 * set aside with a warning and everything is embedded again.
 */

const KEY_BYTES = 32;
/** New entries below this share of a file of at least MIN_REWRITE_ENTRIES are not worth rewriting it for (see save). */
export const MIN_NEW_SHARE = 0.01;
export const MIN_REWRITE_ENTRIES = 5000;

/** The folder of the vector cache: the one given, else the project's cache folder's `vectors`. */
export function vectorCacheDirOf(given: string | undefined): string {
  return given ?? join(cacheDir(), 'vectors');
}

export function cacheKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class VectorCache {
  private readonly entries = new Map<string, Float32Array>();
  /** Entries added since the cache was read or saved. */
  private added: string[] = [];
  /** Entries in the file when it was read or saved. */
  private read = 0;
  hits = 0;
  misses = 0;

  private constructor(
    private readonly file: string,
    readonly dims: number,
  ) {}

  static async open(
    dir: string,
    modelChecksum: string,
    dims: number,
    warn: (line: string) => void = () => {},
  ): Promise<VectorCache> {
    const cache = new VectorCache(join(dir, `${modelChecksum.slice(0, 32)}-${dims}.bin`), dims);
    // A save killed before its rename leaves its temp file: nothing else would ever remove it.
    await removeDeadTempFiles(dir);
    if (existsSync(cache.file)) {
      const data = await readFile(cache.file);
      const record = KEY_BYTES + dims * 4;
      if (data.byteLength % record !== 0) {
        warn(
          `vector cache ${cache.file} is damaged (size ${data.byteLength} is not a whole number of records); embedding everything again`,
        );
      } else {
        // One copy of the file, aligned for float views: no array allocated per entry.
        const floats = new Float32Array(data.byteLength / 4);
        new Uint8Array(floats.buffer).set(data);
        for (let off = 0; off < data.byteLength; off += record) {
          const key = data.subarray(off, off + KEY_BYTES).toString('hex');
          cache.entries.set(key, floats.subarray((off + KEY_BYTES) / 4, (off + record) / 4));
        }
        cache.read = cache.entries.size;
      }
    }
    return cache;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Float32Array | undefined {
    const v = this.entries.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }

  set(key: string, vector: Float32Array): void {
    if (!this.entries.has(key)) this.added.push(key);
    this.entries.set(key, vector);
  }

  /**
   * Writes the whole cache atomically (temp file + rename): only an entire file swapped in by
   * rename is never seen half-written (an append cut short could leave a key without its
   * vector). A no-op when nothing was added, or when a large cache (MIN_REWRITE_ENTRIES) gained
   * under MIN_NEW_SHARE of what was read: a one-file reindex adds a vector or two to thousands,
   * and rewriting them all was a tenth of its time. Those few vectors are in the build's own vectors.f32, which the next
   * reindex carries over; only a build that re-chunks everything would embed them again.
   */
  async save(): Promise<void> {
    if (this.added.length === 0 || (this.read >= MIN_REWRITE_ENTRIES && this.added.length < MIN_NEW_SHARE * this.read))
      return;
    await mkdir(join(this.file, '..'), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeDurably(tmp, this.records(this.entries));
    await rename(tmp, this.file);
    this.added = [];
    this.read = this.entries.size;
  }

  private records(entries: Iterable<[string, Float32Array]>): Buffer {
    const list = [...entries];
    const record = KEY_BYTES + this.dims * 4;
    const out = Buffer.alloc(list.length * record);
    let off = 0;
    for (const [key, vector] of list) {
      out.write(key, off, KEY_BYTES, 'hex');
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, off + KEY_BYTES);
      off += record;
    }
    return out;
  }
}
