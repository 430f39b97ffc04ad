import { watch, type FSWatcher } from 'node:fs';
import { startHttpServer, type RunningServer } from './http-server.js';
import type { ServerOptions } from '../settings/server-options.js';
import { type EngineOptions, openEngine } from '../search/engine.js';
import { LiveEngine, type OpenEngine } from './live-engine.js';
import { openPooledEngine } from './pool-engine.js';
import { SearchPool } from './pool.js';
import { errorText, jsonLog, type Log, type LogLine } from '../observe/log.js';
import { QueryStore } from '../observe/query-store.js';
import { secretFree } from '../observe/redacted-log.js';

/**
 * A running svc-docs server: the engine for the current index behind the MCP HTTP endpoint, with
 * live reload. Knows nothing of the indexer: `--watch` gets a `rebuild` function from the CLI.
 */

export interface ServeOptions {
  indexDir: string;
  server: ServerOptions;
  engine: EngineOptions;
  /** Worker threads that search (SVC_DOCS_SEARCH_THREADS); 0 searches on the main thread. */
  searchThreads: number;
  /**
   * Folders to watch, and how to rebuild the index when they change (`--watch`); with `pollMs`,
   * also a rebuild every so often (git corpora: the rebuild asks the remote for a new commit).
   */
  watch?: { dirs: string[]; rebuild: () => Promise<void>; debounceMs?: number; pollMs?: number };
  /** Where the log's lines go (secrets are removed before they get there). */
  log: LogLine;
}

export interface RunningDocsServer {
  http: RunningServer;
  live: LiveEngine;
  /** The search pool, when searches run in worker threads. */
  pool: SearchPool | undefined;
  /** Where searches are recorded for the docs-gap report, unless turned off. */
  store: QueryStore | undefined;
  close(): Promise<void>;
}

/** The query store in the index folder, unless settings turn it off. */
function openStore(options: ServeOptions, log: LogLine, secrets: (string | undefined)[]): QueryStore | undefined {
  const { queryStore, queryStoreMaxBytes } = options.server;
  if (!queryStore) return undefined;
  return new QueryStore({
    indexDir: options.indexDir,
    maxBytes: queryStoreMaxBytes,
    log: jsonLog(log),
    secretFree: (sink) => secretFree(sink, secrets),
  });
}

/** The live engine on the current index, searching in a pool of worker threads when asked for one. */
async function openLive(options: ServeOptions, log: LogLine): Promise<Pick<RunningDocsServer, 'live' | 'pool'>> {
  const pool = options.searchThreads > 0 ? new SearchPool(options.searchThreads, log) : undefined;
  const open: OpenEngine = pool ? (dir, engine) => openPooledEngine(pool, dir, engine) : openEngine;
  try {
    const { indexDir, engine } = options;
    const initial = await open(indexDir, engine);
    return { live: new LiveEngine({ indexDir, initial, log, open, options: engine }), pool };
  } catch (error) {
    await pool?.close();
    throw error;
  }
}

export async function serve(options: ServeOptions): Promise<RunningDocsServer> {
  const secrets = [options.server.authToken, options.server.metricsToken];
  // The HTTP layer removes secrets from its own lines; the rest of the server's go through this.
  const log = secretFree(options.log, secrets);
  const { live, pool } = await openLive(options, log);
  // A new index written by `svc-docs index` (or --watch) is picked up as soon as CURRENT changes.
  live.watch();
  const onHangup = () => {
    jsonLog(log)({ event: 'reload-requested', signal: 'SIGHUP' });
    void live.reload();
  };
  process.on('SIGHUP', onHangup);
  let http: RunningServer | undefined;
  let watcher: CorpusWatcher | undefined;
  const store = openStore(options, log, secrets);
  try {
    // Searches go through the live engine, which knows when a replaced index is no longer searched.
    http = await startHttpServer({
      ...options.server,
      engine: () => live,
      log: options.log,
      store,
      reloads: () => live.reloads,
    });
    watcher = options.watch ? watchCorpus(options.watch, live, jsonLog(log)) : undefined;
  } catch (error) {
    // Port in use, say: without this the CURRENT poller would keep the process alive after the error.
    process.off('SIGHUP', onHangup);
    await http?.close();
    await live.close();
    await pool?.close();
    throw error;
  }
  const listening = http;
  return {
    http: listening,
    live,
    pool,
    store,
    async close() {
      process.off('SIGHUP', onHangup);
      await watcher?.close();
      await listening.close();
      await store?.flush();
      await live.close();
      await pool?.close();
    },
  };
}

interface CorpusWatcher {
  /** Stops watching and waits for a rebuild under way; a pending (debounced) one is dropped. */
  close(): Promise<void>;
}

function watchCorpus(spec: NonNullable<ServeOptions['watch']>, live: LiveEngine, log: Log): CorpusWatcher {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const run = async (reason: string) => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const start = performance.now();
        log({ event: 'reindex-started', reason });
        try {
          await spec.rebuild();
          const reloaded = await live.reload();
          log({ event: 'reindexed', reloaded, ms: Math.round(performance.now() - start) });
        } catch (error) {
          log({ level: 'error', event: 'reindex-failed', error: errorText(error) });
        }
      } while (again && !closed);
    })();
    await running;
    running = undefined;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run('the corpus changed'), spec.debounceMs ?? 500);
  };
  const watchers: FSWatcher[] = spec.dirs.map((dir) => watch(dir, { recursive: true }, schedule));
  const poll =
    spec.pollMs === undefined
      ? undefined
      : setInterval(() => void run('polling the git and website corpora'), spec.pollMs);
  log({
    event: 'watching',
    dirs: spec.dirs,
    debounceMs: spec.debounceMs ?? 500,
    ...(spec.pollMs === undefined ? {} : { pollMs: spec.pollMs }),
  });
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const w of watchers) w.close();
      await running;
    },
  };
}
