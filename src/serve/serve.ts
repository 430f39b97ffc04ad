import { watch, type FSWatcher } from 'node:fs';
import { clientConfigs } from '../cli/client-config.js';
import { clientAddress } from './client-address.js';
import { startHttpServer, type RunningServer } from '../mcp/http/http.js';
import type { ServerOptions } from '../mcp/server-options.js';
import { type EngineOptions, openEngine } from '../search/engine.js';
import { LiveEngine, type OpenEngine } from './live-engine.js';
import { openPooledEngine } from './pool-engine.js';
import { SearchPool } from './pool.js';

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
  log: (line: string) => void;
}

export interface RunningDocsServer {
  http: RunningServer;
  live: LiveEngine;
  /** The search pool, when searches run in worker threads. */
  pool: SearchPool | undefined;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningDocsServer> {
  const { log } = options;
  const pool = options.searchThreads > 0 ? new SearchPool(options.searchThreads, log) : undefined;
  const open: OpenEngine = pool ? (dir, engine) => openPooledEngine(pool, dir, engine) : openEngine;
  let live: LiveEngine;
  try {
    const { indexDir, engine } = options;
    live = new LiveEngine({ indexDir, initial: await open(indexDir, engine), log, open, options: engine });
  } catch (error) {
    await pool?.close();
    throw error;
  }
  // A new index written by `svc-docs index` (or --watch) is picked up as soon as CURRENT changes.
  live.watch();
  const onHangup = () => void live.reload();
  process.on('SIGHUP', onHangup);
  let http: RunningServer | undefined;
  let watcher: CorpusWatcher | undefined;
  try {
    http = await startHttpServer({ ...options.server, engine: () => live.current, log });
    watcher = options.watch ? watchCorpus(options.watch, live, log) : undefined;
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
    async close() {
      process.off('SIGHUP', onHangup);
      await watcher?.close();
      await listening.close();
      await live.close();
      await pool?.close();
    },
  };
}

interface CorpusWatcher {
  /** Stops watching and waits for a rebuild under way; a pending (debounced) one is dropped. */
  close(): Promise<void>;
}

function watchCorpus(
  spec: NonNullable<ServeOptions['watch']>,
  live: LiveEngine,
  log: (line: string) => void,
): CorpusWatcher {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await spec.rebuild();
          await live.reload();
        } catch (error) {
          log(JSON.stringify({ event: 'reindex-failed', error: (error as Error).message }));
        }
      } while (again && !closed);
    })();
    await running;
    running = undefined;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), spec.debounceMs ?? 500);
  };
  const watchers: FSWatcher[] = spec.dirs.map((dir) => watch(dir, { recursive: true }, schedule));
  const poll = spec.pollMs === undefined ? undefined : setInterval(() => void run(), spec.pollMs);
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

/**
 * What startup prints for people: the URL clients should use (clientAddress: an accepted host
 * name, not a wildcard bind), which names it answers to when that matters, and what to paste
 * into an IDE. `listening` is the endpoint where the server listens.
 */
export function startupBanner(listening: string, server: ServerOptions): string {
  const { url, notes } = clientAddress(listening, server);
  const [main] = clientConfigs(url, { auth: server.authToken !== undefined });
  return [
    `svc-docs is serving MCP at ${url}`,
    ...notes,
    `Add this to your MCP client configuration (more variants: svc-docs config --url ${url}):`,
    main!.text,
  ].join('\n');
}
