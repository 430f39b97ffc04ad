import { afterAll, afterEach, beforeAll } from 'vitest';
import { startHttpServer, type HttpServerOptions, type RunningServer } from '../../src/mcp/http.js';
import type { LoadedEngine } from '../../src/search/engine.js';

/**
 * The real engine opened once per test file and HTTP servers started on it per test, each closed
 * after its test: the hooks every HTTP-level test file needs. `serve` collects the server's log lines.
 */
export function useServedEngine(open: () => Promise<LoadedEngine>): {
  engine: () => LoadedEngine;
  serve: (options?: Partial<HttpServerOptions>) => Promise<RunningServer & { lines: string[] }>;
} {
  let engine: LoadedEngine | undefined;
  const started: RunningServer[] = [];
  beforeAll(async () => {
    engine = await open();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await engine?.close();
  });
  const current = () => {
    if (engine === undefined) throw new Error('the engine is opened in beforeAll: use it inside a test');
    return engine;
  };
  return {
    engine: current,
    async serve(options = {}) {
      const lines: string[] = [];
      const server = await startHttpServer({ port: 0, engine: current, log: (line) => lines.push(line), ...options });
      started.push(server);
      return Object.assign(server, { lines });
    },
  };
}
