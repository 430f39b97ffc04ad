import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultVectorCacheDir } from '../../src/settings/defaults.js';
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

/** The folder of the vector cache: the one given, else the cache folder's `vectors`. */
export function vectorCacheDirOf(given: string | undefined, cacheDir?: string): string {
  return given ?? defaultVectorCacheDir(cacheDir);
}

export function cacheKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Lookups answered by scanning the file's records before its keys are put in a map. A one-file
 * reindex looks up a few vectors (its changed sections, its new words); hex-decoding all 8,000
 * keys of the Argo CD cache into a map cost it 15-20 ms, a scan of the records 20 µs.
 */
export const SCANNED_LOOKUPS = 32;

export class VectorCache {
  /** Entries by key: the file's once a lookup too many has put them here, and those added since. */
  private entries = new Map<string, Float32Array>();
  /** The file's records as read, aligned for float views (key bytes, then the vector), until they are in `entries`. */
  private records: Float32Array | undefined;
  private scans = 0;
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
      if (data.byteLength % cache.recordBytes() !== 0) {
        warn(
          `vector cache ${cache.file} is damaged (size ${data.byteLength} is not a whole number of records); embedding everything again`,
        );
      } else {
        // One copy of the file, aligned for float views: no array allocated per entry.
        cache.records = new Float32Array(data.byteLength / 4);
        new Uint8Array(cache.records.buffer).set(data);
        cache.read = data.byteLength / cache.recordBytes();
      }
    }
    return cache;
  }

  get size(): number {
    return this.allEntries().size;
  }

  get(key: string): Float32Array | undefined {
    const v = this.lookup(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }

  set(key: string, vector: Float32Array): void {
    if (!this.lookup(key)) this.added.push(key);
    this.entries.set(key, vector);
  }

  private recordBytes(): number {
    return KEY_BYTES + this.dims * 4;
  }

  private lookup(key: string): Float32Array | undefined {
    const added = this.entries.get(key);
    if (added || !this.records) return added;
    if (++this.scans > SCANNED_LOOKUPS) return this.allEntries().get(key);
    return this.scan(key);
  }

  /** The file's vector for `key`, found by comparing each record's first key word, then the whole key. */
  private scan(key: string): Float32Array | undefined {
    const records = this.records!;
    const keyBytes = Buffer.from(key, 'hex');
    if (keyBytes.byteLength !== KEY_BYTES) return undefined;
    const wanted = new Uint32Array(keyBytes.buffer.slice(keyBytes.byteOffset, keyBytes.byteOffset + KEY_BYTES));
    const words = new Uint32Array(records.buffer);
    const stride = this.recordBytes() / 4;
    const keyWords = KEY_BYTES / 4;
    // From the end, so a key the file holds twice gives its last vector, as the map does.
    for (let at = words.length - stride; at >= 0; at -= stride) {
      if (words[at] !== wanted[0]) continue;
      let same = true;
      for (let w = 1; w < keyWords && same; w++) same = words[at + w] === wanted[w];
      if (same) return records.subarray(at + keyWords, at + stride);
    }
    return undefined;
  }

  /** Every entry, the file's put into the map first (once). */
  private allEntries(): Map<string, Float32Array> {
    const records = this.records;
    if (!records) return this.entries;
    this.records = undefined;
    const bytes = Buffer.from(records.buffer);
    const record = this.recordBytes();
    const fromFile = new Map<string, Float32Array>();
    for (let off = 0; off < bytes.byteLength; off += record) {
      fromFile.set(
        bytes.subarray(off, off + KEY_BYTES).toString('hex'),
        records.subarray((off + KEY_BYTES) / 4, (off + record) / 4),
      );
    }
    // Added entries stay after (and over) the file's, as when the map was filled at open.
    for (const [key, vector] of this.entries) fromFile.set(key, vector);
    this.entries = fromFile;
    return fromFile;
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
    await writeDurably(tmp, this.recordsOf(this.allEntries()));
    await rename(tmp, this.file);
    this.added = [];
    this.read = this.entries.size;
  }

  private recordsOf(entries: Iterable<[string, Float32Array]>): Buffer {
    const list = [...entries];
    const record = this.recordBytes();
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
