import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../src/embedding/types.js';
import { openEngine } from '../../src/search/engine.js';
import { Bm25Floor } from '../quality/bm25-floor.js';
import { runProbe, type ServerSpawnOptions, spawnServer } from '../lib/child-process.js';
import { connect, type HttpLevel } from './http-level.js';
import { captureAnswers, type FloorComparison, type FloorRatios, interleavedLevel, spawnFloor } from './floor.js';
import { memoryReportSchema, type MemoryReport } from './memory-probe.js';
import { percentile } from '../lib/metrics.js';

export type { HttpLevel } from './http-level.js';

/**
 * End to end over HTTP: the compiled server (`svc-docs serve`) in a process of its own on a
 * loopback port, driven by the real MCP client (SDK Client + StreamableHTTPClientTransport) at 1,
 * 8 and 32 concurrent sessions (http-level.ts). Every session initializes, lists the tools (as
 * clients do, which also gives the client the output schema to validate against), then makes a
 * fixed number of SearchDocs calls one after another; all sessions run at once. Client-side
 * latency per call, and the server's CPU time per call. The in-process search and the plain BM25
 * floor (bm25-floor.ts) are timed in the same run on the same queries, so the HTTP p50 is read as
 * a multiple of each.
 */

export interface HttpReport {
  server: string;
  queries: number;
  /** engine.search in this process on the same index and queries, same limit as the server's. */
  inProcessP50: number;
  /** Plain BM25 over the same sections (bench/quality/bm25-floor.ts), timed beside engine.search, p50 ms. */
  bm25FloorP50: number;
  levels: HttpLevel[];
  /** p50 at one session over the in-process p50, and the difference in ms. */
  httpOverInProcess: number;
  overheadP50Ms: number;
  /** p50 at one session over the BM25 floor's p50 (the goal: ≤ 8). */
  httpOverFloor: number;
  serverReadyMs: number;
  /** Calls/s at the most sessions over calls/s at one (the goal: ≥ 2 at 32 on 2 cores). */
  throughputMostOverOne: number;
  /** The same levels on the MCP SDK's own floor, interleaved with svc-docs', and svc ÷ floor at each. */
  floor: FloorComparison;
  /** The server's RSS after the last level over the index plus the model on disk (goal ≤ 3). */
  serverRssOverDisk: number;
  /** Where the megabytes go, measured step by step in a fresh process (bench/speed/memory-probe.ts). */
  memory: MemoryReport;
}

export interface HttpPlan {
  sessions: number;
  callsPerSession: number;
}

const SERVER_RESULT_LIMIT = 5;
const WARM_UP_CALLS = 30;
/** Rounds each level is split into, alternating svc-docs and the floor. */
const FLOOR_ROUNDS = 4;
const FLOOR_SERVER =
  "bench/speed/floor-server.ts: McpServer + NodeStreamableHTTPServerTransport per session, SSE answers, node:http, svc-docs' answers from a map; its own process, 127.0.0.1";

/** engine.search and the BM25 floor in this process, interleaved query by query: each one's p50. */
async function inProcess(
  indexDir: string,
  embedder: Embedder,
  queries: string[],
): Promise<{ engineP50: number; floorP50: number }> {
  const engine = await openEngine(indexDir, { embedder });
  const floor = await Bm25Floor.open(indexDir);
  for (const q of queries.slice(0, 5)) {
    await engine.search(q, { limit: SERVER_RESULT_LIMIT });
    floor.search(q, SERVER_RESULT_LIMIT);
  }
  const engineMs: number[] = [];
  const floorMs: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      let t = performance.now();
      await engine.search(q, { limit: SERVER_RESULT_LIMIT });
      engineMs.push(performance.now() - t);
      t = performance.now();
      floor.search(q, SERVER_RESULT_LIMIT);
      floorMs.push(performance.now() - t);
    }
  }
  await engine.close();
  return { engineP50: percentile(engineMs, 50), floorP50: percentile(floorMs, 50) };
}

/** Calls on a fresh session, one after another: warms a server's code paths before it is measured. */
async function warm(url: string, queries: string[]): Promise<void> {
  const client = await connect(url);
  for (const q of queries.slice(0, WARM_UP_CALLS))
    await client.callTool({ name: 'SearchDocs', arguments: { searchTerm: q } });
  await client.close();
}

/**
 * The compiled server and the SDK's floor serving its captured answers (floor.ts), each level of
 * `plan` run on both interleaved, after warming both servers' code paths.
 */
async function serverLevels(
  indexDir: string,
  queries: string[],
  plan: HttpPlan[],
  log: (line: string) => void,
  spawnOptions: ServerSpawnOptions,
): Promise<{ levels: HttpLevel[]; readyMs: number; floor: FloorComparison }> {
  const server = await spawnServer(indexDir, log, spawnOptions);
  const work = mkdtempSync(join(tmpdir(), 'svc-docs-floor-'));
  const levels: HttpLevel[] = [];
  const floorLevels: HttpLevel[] = [];
  const ratios: FloorRatios[] = [];
  try {
    const answers = await captureAnswers(server.url, queries);
    const floor = await spawnFloor(answers, work, log);
    try {
      await warm(server.url, queries);
      await warm(floor.url, queries);
      for (const { sessions, callsPerSession: calls } of plan) {
        const result = await interleavedLevel(server, floor, queries, sessions, calls, FLOOR_ROUNDS);
        logLevel(log, 'http', result.svc);
        logLevel(log, 'floor', result.floor);
        if (result.svc.errors === result.svc.calls)
          throw new Error(
            `every SearchDocs call failed at ${sessions} sessions: the server or the benchmark is broken`,
          );
        levels.push(result.svc);
        floorLevels.push(result.floor);
        ratios.push(result.ratios);
      }
    } finally {
      await floor.stop();
    }
    const sizes = Object.values(answers).map((a) => a.length);
    const comparison = {
      server: FLOOR_SERVER,
      rounds: FLOOR_ROUNDS,
      answerCharsP50: percentile(sizes, 50),
      floorLevels,
      ratios,
    };
    return { levels, readyMs: server.readyMs, floor: comparison };
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function logLevel(log: (line: string) => void, name: string, l: HttpLevel): void {
  log(
    `${name}: ${l.sessions} session(s) × ${l.callsPerSession} calls: p50 ${l.p50.toFixed(2)} ms, p95 ${l.p95.toFixed(1)} ms, ${l.throughput.toFixed(0)} calls/s, server CPU ${l.serverCpuMsPerCall.toFixed(2)} ms per call (main thread ${l.mainThreadCpuMsPerCall.toFixed(2)}; ${l.serverCores.toFixed(2)} cores busy), ${l.errors} errors`,
  );
}

export async function measureHttp(
  indexDir: string,
  embedder: Embedder,
  queries: string[],
  queriesFile: string,
  plan: HttpPlan[],
  log: (line: string) => void,
  spawnOptions: ServerSpawnOptions = {},
): Promise<HttpReport> {
  const { engineP50, floorP50 } = await inProcess(indexDir, embedder, queries);
  const { levels, readyMs, floor } = await serverLevels(indexDir, queries, plan, log, spawnOptions);
  const single = levels.find((l) => l.sessions === 1) ?? levels[0]!;
  const most = levels.reduce((a, b) => (b.sessions > a.sessions ? b : a));
  // With the server's V8 settings, applied before the probe's imports as src/cli.ts applies them.
  const memory = await runProbe(
    'speed/memory-probe',
    ['--index', indexDir, '--queries', queriesFile],
    memoryReportSchema,
    {
      log,
      preload: 'speed/server-heap-preload',
    },
  );
  const serverRssOverDisk = most.serverRssMB / (memory.disk.indexMB + memory.disk.modelMB);
  const throughputMostOverOne = most.throughput / single.throughput;
  log(
    `http: one session's p50 ${(single.p50 / floorP50).toFixed(1)}× the BM25 floor (${floorP50.toFixed(3)} ms), ${(single.p50 / engineP50).toFixed(1)}× in-process search; ${most.sessions} sessions over 1: ${throughputMostOverOne.toFixed(2)}× the calls/s; server RSS ${most.serverRssMB.toFixed(0)} MB = ${serverRssOverDisk.toFixed(2)}× index + model on disk; model ${memory.model.rssMB} MB, index ${memory.index.rssMB} MB, dictionary ${memory.dictionary.compactMB} MB, worker ${memory.pool.perExtraWorkerMB} MB`,
  );
  return {
    server:
      'node <compiled>/src/cli.js serve --no-build, its own process, 127.0.0.1, ephemeral port; client in the benchmark process',
    queries: queries.length,
    inProcessP50: engineP50,
    bm25FloorP50: floorP50,
    levels,
    floor,
    httpOverInProcess: single.p50 / engineP50,
    overheadP50Ms: single.p50 - engineP50,
    httpOverFloor: single.p50 / floorP50,
    serverReadyMs: readyMs,
    throughputMostOverOne,
    serverRssOverDisk,
    memory,
  };
}
