import { watchFile, unwatchFile } from 'node:fs';
import { join } from 'node:path';
import { currentBuildDir } from '../index/read-index.js';
import { type Engine, type EngineIndex, type EngineOptions, ModelMismatchError, openEngine } from '../search/engine.js';
import type { IndexSummary, SearchEngine, SearchOptions, SearchResult } from '../search/types.js';
import { errorText, logLine } from '../observe/log.js';

/** Opens an index into an engine: in this thread (openEngine) or into a search pool. */
export type OpenEngine = (indexDir: string, options: EngineOptions) => Promise<Engine>;

export interface LiveEngineOptions {
  indexDir: string;
  /** An engine that loaded its own embedder (opened without `embedder`); this closes it. */
  initial: Engine;
  log: (line: string) => void;
  /** How a new index is opened (default: in this thread), and with what (its embedder is the current one's when the model is the same). */
  open?: OpenEngine;
  options?: EngineOptions;
  /** How long the replaced engine stays open for searches still running on it (default 30 s). */
  graceMs?: number;
}

/**
 * The engine a running server searches, swapped for a new index without a restart. The new index
 * is loaded beside the old one and only then swapped in (one assignment, so each request sees
 * one index or the other, never a mix); searches already running (through search()) finish on
 * the old engine, which is released as soon as the last of them ends, or after the grace period
 * at the latest. So a server that reloads every few seconds holds one index, not one per reload
 * of the last grace period. A bad new index is refused with one log line and the old one keeps
 * serving. As a SearchEngine, it searches whichever index is current.
 */

interface OpenEntry {
  ownsEmbedder: boolean;
  retireTimer?: NodeJS.Timeout;
  /** Searches running on the engine through search(). */
  searching: number;
  /** Replaced: released once `searching` is 0. */
  retired: boolean;
}

export class LiveEngine implements SearchEngine {
  private engine: Engine;
  private reloading: Promise<boolean> | undefined;
  /** A reload asked for while one runs: it runs next, since CURRENT may have moved on meanwhile. */
  private queued: Promise<boolean> | undefined;
  /**
   * Every engine still open: the current one and those replaced within the grace period. Engines
   * of one model share an embedder, which only the engine that loaded it disposes on close().
   */
  private readonly open = new Map<Engine, OpenEntry>();
  private stopWatching: (() => void) | undefined;
  private readonly indexDir: string;
  private readonly log: (line: string) => void;
  private readonly openIndex: OpenEngine;
  private readonly options: EngineOptions;
  private readonly graceMs: number;
  /** Reloads so far: new builds swapped in, and builds refused (for /metrics). */
  readonly reloads = { reloaded: 0, refused: 0 };

  constructor(live: LiveEngineOptions) {
    this.indexDir = live.indexDir;
    this.log = live.log;
    this.openIndex = live.open ?? openEngine;
    this.options = live.options ?? {};
    this.graceMs = live.graceMs ?? 30_000;
    this.engine = live.initial;
    this.open.set(live.initial, { ownsEmbedder: true, searching: 0, retired: false });
  }

  get current(): Engine {
    return this.engine;
  }

  /** The current index (page resources read it). */
  get index(): EngineIndex {
    return this.engine.index;
  }

  summary(): IndexSummary {
    return this.engine.summary();
  }

  /** Searches the current index; a replaced one is released when its last search ends. */
  async search(term: string, options?: SearchOptions): Promise<SearchResult[]> {
    const engine = this.engine;
    const entry = this.open.get(engine);
    if (entry) entry.searching++;
    try {
      return await engine.search(term, options);
    } finally {
      if (entry && --entry.searching === 0 && entry.retired) void this.release(engine);
    }
  }

  /** Loads the index CURRENT names, if it is not the one being served. True when it swapped. */
  reload(): Promise<boolean> {
    // Reloads run one at a time. One requested meanwhile must not just join the running one, which
    // may have read CURRENT before the newest build was written: it runs once more afterwards
    // (requests during the same reload share that one run).
    if (this.reloading) {
      this.queued ??= this.reloading.then(() => {
        this.queued = undefined;
        return this.reload();
      });
      return this.queued;
    }
    this.reloading = this.doReload().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async doReload(): Promise<boolean> {
    let next: Engine;
    let ownsEmbedder = false;
    let buildDir: string | undefined;
    try {
      buildDir = await currentBuildDir(this.indexDir);
      if (buildDir === undefined || buildDir === this.engine.index.buildDir) return false;
      try {
        // Same model: share the loaded embedder rather than load it twice.
        next = await this.openIndex(this.indexDir, { ...this.options, embedder: this.engine.embedder });
      } catch (error) {
        if (!(error instanceof ModelMismatchError)) throw error;
        next = await this.openIndex(this.indexDir, { ...this.options, embedder: undefined });
        ownsEmbedder = true;
      }
    } catch (error) {
      this.reloads.refused++;
      this.log(
        logLine({
          level: 'error',
          event: 'reload-refused',
          index: this.indexDir,
          build: buildDir,
          serving: this.engine.index.buildDir,
          error: errorText(error),
        }),
      );
      return false;
    }
    const old = this.engine;
    this.engine = next;
    this.open.set(next, { ownsEmbedder, searching: 0, retired: false });
    this.reloads.reloaded++;
    const summary = next.summary();
    this.log(
      logLine({
        event: 'reloaded',
        index: next.index.buildDir,
        documents: summary.documents,
        sections: summary.sections,
        builtAt: summary.builtAt,
        previous: old.index.buildDir,
      }),
    );
    this.retire(old);
    return true;
  }

  /** Forgets an engine; its embedder is disposed once no open engine uses it. */
  /** Releases a replaced engine now if no search runs on it, else when the last one ends (at most graceMs). */
  private retire(engine: Engine): void {
    const entry = this.open.get(engine);
    if (!entry) return;
    entry.retired = true;
    if (entry.searching === 0) void this.release(engine);
    else entry.retireTimer = setTimeout(() => void this.release(engine), this.graceMs).unref();
  }

  private async release(engine: Engine): Promise<void> {
    const entry = this.open.get(engine);
    if (!entry) return;
    this.open.delete(engine);
    clearTimeout(entry.retireTimer);
    await engine.releaseIndex();
    // Closing the engine that loaded a shared embedder would break the engines still using it.
    if ([...this.open.keys()].some((other) => other.embedder === engine.embedder)) return;
    if (entry.ownsEmbedder) await engine.close();
    else await engine.embedder.dispose();
  }

  /** Reloads whenever the index's CURRENT pointer changes (polled: works on every filesystem and volume). */
  watch(intervalMs = 1000): void {
    const pointer = join(this.indexDir, 'CURRENT');
    const listener = () => void this.reload();
    watchFile(pointer, { interval: intervalMs }, listener);
    this.stopWatching = () => unwatchFile(pointer, listener);
  }

  /** Call after the HTTP server has stopped: no search can still be running on a retiring engine. */
  async close(): Promise<void> {
    this.stopWatching?.();
    await this.queued;
    await this.reloading;
    for (const engine of [...this.open.keys()]) await this.release(engine);
  }
}
