import { join } from 'node:path';
import { CHUNKER_VERSION } from '../chunk/chunk.js';
import { readKeyedCache, writeKeyedCache } from '../write/keyed-cache.js';
import { vectorCacheDirOf } from '../write/vector-cache.js';

/**
 * Pages whose parse ran over the limit, remembered by the sha256 of their content, so that later
 * builds leave them out without parsing them again. Parsed again, such a page cost the limit's CPU
 * time in every build: under `serve --watch` every edit of any other page took 22-45 s instead of
 * 2-4 s, and five such pages were 106 s of a 141 s build.
 *
 * Each is kept with the limit it ran over and the chunker's version, and is parsed again once its
 * content changes (a new digest), the limit is raised above that one, or the chunker changes. The
 * limit counts CPU time (cpu-deadline.ts), so a page over it is over it however busy the machine
 * was: remembering it never keeps out a page a quieter build would have taken.
 *
 * A cache kept beside the vector cache, as corpus-digests.json is: a missing or damaged file is
 * an empty one, and one that cannot be written only means parsing such pages again.
 */
export const PARSE_FAILURES_FILE = 'parse-failures.json';

const FORMAT = 1;
/** Pages remembered at most; the longest remembered are forgotten first (and parsed once more if still there). */
export const MAX_REMEMBERED = 1000;

/** The limit the parse ran over (ms of CPU time), the chunker version that parsed it, and when (ms since the epoch). */
type Entry = [limitMs: number, chunker: number, atMs: number];

function isEntry(value: unknown): value is Entry {
  return Array.isArray(value) && value.length === 3 && value.every((n) => typeof n === 'number');
}

export class ParseFailures {
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  /** The failures kept beside the vector cache (`vectorCacheDir`, or the default one). */
  static beside(vectorCacheDir: string | undefined): ParseFailures {
    return ParseFailures.open(join(vectorCacheDirOf(vectorCacheDir), PARSE_FAILURES_FILE));
  }

  /** The failures remembered in `file` (none when it is missing or damaged: such pages are parsed again). */
  static open(file: string): ParseFailures {
    return new ParseFailures(file, readKeyedCache(file, FORMAT, 'pages', isEntry));
  }

  /** The limit (ms) this content's parse ran over with this chunker, when it is at least `limitMs`: it would run over `limitMs` too. */
  ranOver(hash: string, limitMs: number): number | undefined {
    const entry = this.entries.get(hash);
    if (entry === undefined || entry[1] !== CHUNKER_VERSION || entry[0] < limitMs) return undefined;
    return entry[0];
  }

  /** Remembers that this content's parse ran over `limitMs`. */
  record(hash: string, limitMs: number, atMs = Date.now()): void {
    this.entries.delete(hash);
    this.entries.set(hash, [limitMs, CHUNKER_VERSION, atMs]);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_REMEMBERED) break;
      this.entries.delete(oldest);
    }
    this.changed = true;
  }

  /** Forgets this content's failure: parsed again under a raised limit, it did not run over. */
  forget(hash: string): void {
    if (this.entries.delete(hash)) this.changed = true;
  }

  /** Writes the file if anything was recorded (to a temporary name, then renamed); failures are ignored. */
  save(): void {
    if (!this.changed) return;
    if (writeKeyedCache(this.file, FORMAT, 'pages', this.entries)) this.changed = false;
  }
}
