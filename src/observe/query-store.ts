import { appendFile, readFile, rename, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { errorText, type Log, type LogLine } from './log.js';
import { parseQueryRecords, type QueryRecord, queryRecord, queryStoreFiles } from './query-record.js';
import type { SearchOutcome } from './search-outcome.js';

/**
 * The searches the server answered, kept for the docs-gap report: an append-only JSON-lines file
 * in the index folder (`queries.jsonl`), rotated into `queries.1.jsonl` when it reaches half the
 * size allowed, so the two stay within it and survive restarts. Lines are written in the
 * background, a batch at a time; a store that cannot write (a read-only index volume, a full
 * disk) says so once and records nothing more, and searches never wait for it.
 */

export interface QueryStoreOptions {
  indexDir: string;
  /** Both files together at most this many bytes. */
  maxBytes: number;
  log: Log;
  /** Wraps the writer so a secret a client put in a search term is not stored (the log's redaction). */
  secretFree?: (sink: LogLine) => LogLine;
}

/** Lines waiting to be written at most; beyond it (a stalled disk) records are dropped, not held. */
const MAX_PENDING = 10_000;

/**
 * A record waits this long for others to share its write: one append (open, write, close on the
 * thread pool) per search cost 4 % of the main thread's time at one client (CPU profile under the
 * http bench). flush() and so a server's shutdown wait for it.
 */
const BATCH_MS = 100;

export class QueryStore {
  private readonly files: { current: string; previous: string };
  private readonly enqueue: LogLine;
  private pending: string[] = [];
  private writing: Promise<void> | undefined;
  private size: number | undefined;
  private failed = false;
  /** Records accepted since the server started (the page's report is recomputed when it moves). */
  recorded = 0;

  constructor(private readonly options: QueryStoreOptions) {
    this.files = queryStoreFiles(options.indexDir);
    const push: LogLine = (line) => this.pending.push(line);
    this.enqueue = options.secretFree?.(push) ?? push;
  }

  /** The index folder the store's files are in (a report's worker reads them there). */
  get indexDir(): string {
    return this.options.indexDir;
  }

  record(outcome: SearchOutcome, client: string | undefined): void {
    if (this.failed || this.pending.length >= MAX_PENDING) return;
    this.enqueue(JSON.stringify(queryRecord(outcome, client, new Date())));
    this.recorded++;
    this.writeSoon();
  }

  /** Resolves once every record accepted so far is written (or the store has failed). */
  async flush(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private writeSoon(): void {
    this.writing ??= delay(BATCH_MS)
      .then(() => this.drain())
      .finally(() => {
        this.writing = undefined;
        if (this.pending.length > 0 && !this.failed) this.writeSoon();
      });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 && !this.failed) {
      try {
        this.size ??= await stat(this.files.current).then(
          (s) => s.size,
          () => 0,
        );
        const { text, lines, bytes } = this.batch(this.options.maxBytes / 2 - this.size);
        if (lines === 0) {
          await rename(this.files.current, this.files.previous).catch(ignoreMissing);
          this.size = 0;
          continue;
        }
        await appendFile(this.files.current, text, { mode: 0o600 });
        this.pending.splice(0, lines);
        this.size += bytes;
      } catch (error) {
        this.failed = true;
        this.pending = [];
        this.options.log({
          level: 'warn',
          event: 'query-store-failed',
          file: this.files.current,
          error: errorText(error),
          message: 'searches are no longer recorded for the docs-gap report until the server restarts',
        });
      }
    }
  }

  /** The waiting lines that fit in `room` bytes (at least one into an empty file), as text to append. */
  private batch(room: number): { text: string; lines: number; bytes: number } {
    let bytes = 0;
    let lines = 0;
    for (const line of this.pending) {
      const size = Buffer.byteLength(line) + 1;
      if (bytes + size > room && !(lines === 0 && this.size === 0)) break;
      bytes += size;
      lines++;
    }
    return { text: `${this.pending.slice(0, lines).join('\n')}\n`, lines, bytes };
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** The records in an index folder's store, oldest first, written at or after `since` (none when there is no store). */
export async function readQueryRecords(indexDir: string, since?: Date): Promise<QueryRecord[]> {
  const { current, previous } = queryStoreFiles(indexDir);
  const texts = await Promise.all(
    [previous, current].map((file) =>
      readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        ignoreMissing(error);
        return '';
      }),
    ),
  );
  return texts.flatMap((text) => parseQueryRecords(text, since));
}
