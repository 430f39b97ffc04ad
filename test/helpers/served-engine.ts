import { afterAll, afterEach, beforeAll } from 'vitest';
import { startHttpServer, type HttpServerOptions, type RunningServer } from '../../src/serve/http-server.js';
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

/**
 * One engine and one HTTP server on it for the whole test file, for files whose tests read the
 * same server (its session count, its URL) rather than start their own.
 */
export function useSharedServer(open: () => Promise<LoadedEngine>): () => RunningServer {
  let engine: LoadedEngine | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    const opened = await open();
    engine = opened;
    server = await startHttpServer({ port: 0, engine: () => opened, log: () => undefined });
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });
  return () => {
    if (server === undefined) throw new Error('the server starts in beforeAll: use it inside a test');
    return server;
  };
}
