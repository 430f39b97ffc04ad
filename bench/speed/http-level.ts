import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cpuSecondsOf, memoryOf } from '../lib/child-process.js';
import { percentile } from '../lib/metrics.js';
import { connectClient } from '../lib/mcp-client.js';

/**
 * One load level of the HTTP benchmark: `sessions` MCP clients (SDK Client +
 * StreamableHTTPClientTransport) against a running server, each making its SearchDocs calls one
 * after another, all sessions at once; client-side latency per call, and the server's CPU time
 * over the calls (its process's user + system time, read from /proc, over calls answered).
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
  /** The server's CPU time over the level's wall time: how many cores it kept busy (2 at most on 2 cores). */
  serverCores: number;
  /**
   * CPU time per call of the server's main thread alone (its thread id is the process id): the
   * thread every call's protocol work runs on, so the one that bounds calls/s.
   */
  mainThreadCpuMsPerCall: number;
}

/** A session as clients open one: initialize, then list the tools (which gives the client the output schema). */
export async function connect(url: string): Promise<Client> {
  const { client } = await connectClient(url, {}, { name: 'svc-docs-bench' });
  await client.listTools();
  return client;
}

/** Each client's calls one after another, all clients at once: every call's latency, and the errors. */
async function callAll(
  clients: Client[],
  queries: string[],
  callsPerSession: number,
): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
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
  return { latencies, errors };
}

/** One run of a level, unsummarized, so that runs interleaved with another server's can be pooled. */
export interface LevelRun {
  latencies: number[];
  errors: number;
  seconds: number;
  serverCpuMs: number;
  mainThreadCpuMs: number;
  clientCpuMs: number;
  serverRssMB: number;
}

/** `sessions` sessions opened, warmed with one call each, then `callsPerSession` calls each, all at once. */
export async function runLevel(
  url: string,
  queries: string[],
  sessions: number,
  callsPerSession: number,
  pid: number,
): Promise<LevelRun> {
  const clients = await Promise.all(Array.from({ length: sessions }, () => connect(url)));
  // One warm-up call per session: the first call of a session pays for its lazy set-up. It is not
  // measured, so one that fails (a 408 when a machine at load 25 leaves the server's event loop
  // behind its 10 s header timeout) does not end the run: the measured calls count their errors.
  await Promise.all(
    clients.map((c, i) =>
      c
        .callTool({ name: 'SearchDocs', arguments: { searchTerm: queries[i % queries.length]! } })
        .catch(() => undefined),
    ),
  );
  const serverCpu = cpuSecondsOf(pid);
  const mainThreadCpu = cpuSecondsOf(pid, pid);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const { latencies, errors } = await callAll(clients, queries, callsPerSession);
  const seconds = (performance.now() - started) / 1000;
  const serverCpuMs = (cpuSecondsOf(pid) - serverCpu) * 1000;
  const mainThreadCpuMs = (cpuSecondsOf(pid, pid) - mainThreadCpu) * 1000;
  const { user, system } = process.cpuUsage(clientCpu);
  await Promise.all(clients.map((c) => c.close()));
  const clientCpuMs = (user + system) / 1000;
  return { latencies, errors, seconds, serverCpuMs, mainThreadCpuMs, clientCpuMs, serverRssMB: memoryOf(pid).rssMB };
}

/** Runs of one level pooled: latencies together, CPU and wall time summed; the RSS after the last. */
export function summarizeLevel(sessions: number, runs: LevelRun[]): HttpLevel {
  const sum = (f: (r: LevelRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  const latencies = runs.flatMap((r) => r.latencies);
  const calls = latencies.length;
  const seconds = sum((r) => r.seconds);
  return {
    sessions,
    callsPerSession: calls / sessions,
    calls,
    errors: sum((r) => r.errors),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    throughput: calls / seconds,
    serverRssMB: runs.at(-1)?.serverRssMB ?? 0,
    serverCpuMsPerCall: sum((r) => r.serverCpuMs) / calls,
    clientCpuMsPerCall: sum((r) => r.clientCpuMs) / calls,
    serverCores: sum((r) => r.serverCpuMs) / 1000 / seconds,
    mainThreadCpuMsPerCall: sum((r) => r.mainThreadCpuMs) / calls,
  };
}
