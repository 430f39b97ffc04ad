import { watchFile, unwatchFile } from 'node:fs';
import { join } from 'node:path';
import { currentBuildDir } from '../index/store.js';
import { ModelMismatchError, openEngine, type EngineOptions, type LoadedEngine } from './engine.js';

/**
 * The engine a running server searches, swapped for a new index without a restart. The new index
 * is loaded beside the old one and only then swapped in (one assignment, so each request sees
 * one index or the other, never a mix); searches already running finish on the old engine,
 * which is closed only after a grace period. A bad new index is refused with one log line and
 * the old one keeps serving.
 */
export class LiveEngine {
  private engine: LoadedEngine;
  private reloading: Promise<boolean> | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly indexDir: string,
    initial: LoadedEngine,
    private readonly log: (line: string) => void,
    private readonly options: EngineOptions = {},
    /** How long the replaced engine stays open for searches still running on it. */
    private readonly graceMs = 30_000,
  ) {
    this.engine = initial;
  }

  get current(): LoadedEngine {
    return this.engine;
  }

  /** Loads the index CURRENT names, if it is not the one being served. True when it swapped. */
  reload(): Promise<boolean> {
    // Reloads run one at a time; a request during one joins it.
    this.reloading ??= this.doReload().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async doReload(): Promise<boolean> {
    let next: LoadedEngine;
    try {
      const buildDir = await currentBuildDir(this.indexDir);
      if (buildDir === undefined || buildDir === this.engine.index.buildDir) return false;
      try {
        // Same model: share the loaded embedder rather than load it twice.
        next = await openEngine(this.indexDir, { ...this.options, embedder: this.engine.embedder });
      } catch (error) {
        if (!(error instanceof ModelMismatchError)) throw error;
        next = await openEngine(this.indexDir, { ...this.options, embedder: undefined });
      }
    } catch (error) {
      this.log(JSON.stringify({ event: 'reload-refused', index: this.indexDir, serving: this.engine.index.buildDir, error: (error as Error).message }));
      return false;
    }
    const old = this.engine;
    this.engine = next;
    this.log(JSON.stringify({ event: 'reloaded', index: next.index.buildDir, sections: next.summary().sections, previous: old.index.buildDir }));
    setTimeout(() => void old.close(), this.graceMs).unref();
    return true;
  }

  /** Reloads whenever the index's CURRENT pointer changes (polled: works on every filesystem and volume). */
  watch(intervalMs = 1000): void {
    const pointer = join(this.indexDir, 'CURRENT');
    const listener = () => void this.reload();
    watchFile(pointer, { interval: intervalMs }, listener);
    this.stopWatching = () => unwatchFile(pointer, listener);
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    await this.reloading;
    await this.engine.close();
  }
}
