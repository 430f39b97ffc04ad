import { watch, type FSWatcher } from 'node:fs';
import { clientConfigs } from './mcp/client-config.js';
import { startHttpServer, type RunningServer } from './mcp/http.js';
import type { ServerOptions } from './mcp/server-options.js';
import { openEngine, type EngineOptions } from './search/engine.js';
import { LiveEngine } from './search/live-engine.js';

/**
 * A running svc-docs server: the engine for the current index behind the MCP HTTP endpoint, with
 * live reload. Knows nothing of the indexer: `--watch` gets a `rebuild` function from the CLI.
 */

export interface ServeOptions {
  indexDir: string;
  server: ServerOptions;
  engine: EngineOptions;
  /** Folders to watch, and how to rebuild the index when they change (`--watch`). */
  watch?: { dirs: string[]; rebuild: () => Promise<void>; debounceMs?: number };
  log: (line: string) => void;
}

export interface RunningDocsServer {
  http: RunningServer;
  live: LiveEngine;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningDocsServer> {
  const { log } = options;
  const live = new LiveEngine(options.indexDir, await openEngine(options.indexDir, options.engine), log, options.engine);
  // A new index written by `svc-docs index` (or --watch) is picked up as soon as CURRENT changes.
  live.watch();
  const onHangup = () => void live.reload();
  process.on('SIGHUP', onHangup);
  const http = await startHttpServer({ ...options.server, engine: () => live.current, log });
  const watchers = options.watch ? watchCorpus(options.watch, live, log) : [];
  return {
    http,
    live,
    async close() {
      process.off('SIGHUP', onHangup);
      for (const w of watchers) w.close();
      await http.close();
      await live.close();
    },
  };
}

function watchCorpus(spec: NonNullable<ServeOptions['watch']>, live: LiveEngine, log: (line: string) => void): FSWatcher[] {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
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
      } while (again);
    })();
    await running;
    running = undefined;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), spec.debounceMs ?? 500);
  };
  return spec.dirs.map((dir) => watch(dir, { recursive: true }, schedule));
}

/** What startup prints for people: where the server is and what to paste into an IDE. */
export function startupBanner(url: string, auth: boolean): string {
  const [main] = clientConfigs(url, { auth });
  return [`svc-docs is serving MCP at ${url}`, `Add this to your MCP client configuration (more variants: svc-docs config --url ${url}):`, main!.text].join('\n');
}
