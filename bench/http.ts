import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Embedder } from '../src/embedding/types.js';
import { openEngine } from '../src/search/engine.js';
import { cpuSecondsOf, memoryOf, runProbe, type ServerSpawnOptions, spawnServer } from './child-process.js';
import { memoryReportSchema, type MemoryReport } from './memory-probe.js';
import { percentile } from './metrics.js';

/**
 * End to end over HTTP: the compiled server (`svc-docs serve`) in a process of its own on a
 * loopback port, driven by the real MCP client (SDK Client + StreamableHTTPClientTransport) at 1,
 * 8 and 32 concurrent sessions. Every session initializes, lists the tools (as clients do, which
 * also gives the client the output schema to validate against), then makes a fixed number of
 * SearchDocs calls one after another; all sessions run at once. Client-side latency per call.
 */

export interface HttpLevel {
  sessions: number;
  callsPerSession: number;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** Calls answered per second over the whole level (first call sent to last answer). */
  throughput: number;
  /** Server RSS after the level, MB. */
  serverRssMB: number;
  /** CPU time per call, ms: the server process, and this process (the MCP clients). */
  serverCpuMsPerCall: number;
  clientCpuMsPerCall: number;
}

export interface HttpReport {
  server: string;
  queries: number;
  /** engine.search in this process on the same index and queries, same limit as the server's. */
  inProcessP50: number;
  levels: HttpLevel[];
  /** p50 at one session over the in-process p50, and the difference in ms. */
  httpOverInProcess: number;
  overheadP50Ms: number;
  serverReadyMs: number;
  /** Calls/s at the most sessions over calls/s at one (the goal: ≥ 1.7 at 32 on 2 cores). */
  throughputMostOverOne: number;
  /** The server's RSS after the last level over the index plus the model on disk (goal ≤ 3). */
  serverRssOverDisk: number;
  /** Where the megabytes go, measured step by step in a fresh process (bench/memory-probe.ts). */
  memory: MemoryReport;
}

const SERVER_RESULT_LIMIT = 5;
const WARM_UP_CALLS = 30;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'svc-docs-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  return client;
}

async function level(
  url: string,
  queries: string[],
  sessions: number,
  callsPerSession: number,
  pid: number,
): Promise<HttpLevel> {
  const clients = await Promise.all(Array.from({ length: sessions }, () => connect(url)));
  // One warm-up call per session: the first call of a session pays for its lazy set-up.
  await Promise.all(
    clients.map((c, i) => c.callTool({ name: 'SearchDocs', arguments: { searchTerm: queries[i % queries.length]! } })),
  );
  const latencies: number[] = [];
  let errors = 0;
  const serverCpu = cpuSecondsOf(pid);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, s) => {
      for (let n = 0; n < callsPerSession; n++) {
        // Sessions start at different queries, so concurrent calls don't all ask the same thing.
        const searchTerm = queries[(s * 7 + n) % queries.length]!;
        const t = performance.now();
        try {
          const result = await client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
          if (result.isError) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = (cpuSecondsOf(pid) - serverCpu) * 1000;
  const { user, system } = process.cpuUsage(clientCpu);
  await Promise.all(clients.map((c) => c.close()));
  const calls = sessions * callsPerSession;
  return {
    sessions,
    callsPerSession,
    calls,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    throughput: calls / seconds,
    serverRssMB: memoryOf(pid).rssMB,
    serverCpuMsPerCall: serverCpuMs / calls,
    clientCpuMsPerCall: (user + system) / 1000 / calls,
  };
}

export interface HttpPlan {
  sessions: number;
  callsPerSession: number;
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
  const engine = await openEngine(indexDir, { embedder });
  for (const q of queries.slice(0, 5)) await engine.search(q, { limit: SERVER_RESULT_LIMIT });
  const inProcess: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      const t = performance.now();
      await engine.search(q, { limit: SERVER_RESULT_LIMIT });
      inProcess.push(performance.now() - t);
    }
  }
  await engine.close();

  const server = await spawnServer(indexDir, log, spawnOptions);
  const levels: HttpLevel[] = [];
  try {
    // Warm the server's code paths first, as the in-process engine above was warmed.
    const warm = await connect(server.url);
    for (const q of queries.slice(0, WARM_UP_CALLS))
      await warm.callTool({ name: 'SearchDocs', arguments: { searchTerm: q } });
    await warm.close();
    for (const { sessions, callsPerSession: calls } of plan) {
      const result = await level(server.url, queries, sessions, calls, server.pid);
      log(
        `http: ${sessions} session(s) × ${calls} calls: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.throughput.toFixed(0)} calls/s, ${result.errors} errors`,
      );
      if (result.errors === result.calls)
        throw new Error(`every SearchDocs call failed at ${sessions} sessions: the server or the benchmark is broken`);
      levels.push(result);
    }
  } finally {
    await server.stop();
  }
  const inProcessP50 = percentile(inProcess, 50);
  const single = levels.find((l) => l.sessions === 1) ?? levels[0]!;
  const most = levels.reduce((a, b) => (b.sessions > a.sessions ? b : a));
  // With the server's V8 settings, applied before the probe's imports as src/cli.ts applies them.
  const memory = await runProbe('memory-probe', ['--index', indexDir, '--queries', queriesFile], memoryReportSchema, {
    log,
    preload: 'server-heap-preload',
  });
  const serverRssOverDisk = most.serverRssMB / (memory.disk.indexMB + memory.disk.modelMB);
  log(
    `http: ${most.sessions} sessions over 1: ${(most.throughput / single.throughput).toFixed(2)}× the calls/s; server RSS ${most.serverRssMB.toFixed(0)} MB = ${serverRssOverDisk.toFixed(2)}× index + model on disk; model ${memory.model.rssMB} MB, index ${memory.index.rssMB} MB, dictionary ${memory.dictionary.compactMB} MB, worker ${memory.pool.perExtraWorkerMB} MB`,
  );
  return {
    server:
      'node <compiled>/src/cli.js serve --no-build, its own process, 127.0.0.1, ephemeral port; client in the benchmark process',
    queries: queries.length,
    inProcessP50,
    levels,
    httpOverInProcess: single.p50 / inProcessP50,
    overheadP50Ms: single.p50 - inProcessP50,
    serverReadyMs: server.readyMs,
    throughputMostOverOne: most.throughput / single.throughput,
    serverRssOverDisk,
    memory,
  };
}
