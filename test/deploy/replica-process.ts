import { type ChildProcess, spawn } from 'node:child_process';
import { inject } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * One replica: `svc-docs serve` in its own process (so a test can kill it like a crashed pod),
 * on a free port, with its request log kept for the test to read.
 */

export interface LogEntry {
  method?: string;
  path?: string;
  status?: number;
  session?: string;
  event?: string;
  url?: string;
}

export interface ReplicaProcess {
  id: string;
  /** host:port, for nginx. */
  address: string;
  /** Every JSON line it logged so far. */
  log(): LogEntry[];
  /** SIGKILL: no shutdown, its sessions die with it. Resolves once the process is gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

function parse(line: string): LogEntry | undefined {
  try {
    return JSON.parse(line) as LogEntry;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export function startReplica(id: string, indexDir: string, startupMs = 180_000): Promise<ReplicaProcess> {
  const child = spawn(
    process.execPath,
    // The run's transpiled CLI (test/global-setup.ts), as the other spawned CLIs.
    [inject('transpiledCli'), 'serve', '--no-build', '--index', indexDir, '--port', '0'],
    {
      cwd: projectRoot(),
      // Every client reaches the replicas through nginx from loopback, one client to a replica's fair shares.
      env: { ...process.env, SVC_DOCS_REPLICA_ID: id, SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '1000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const entries: LogEntry[] = [];
  let partial = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const entry = parse(line);
      if (entry) entries.push(entry);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const replica = (url: string): ReplicaProcess => ({
    id,
    address: new URL(url).host,
    log: () => [...entries],
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${id} did not listen within ${startupMs} ms: ${stderr}`));
    }, startupMs);
    const poll = setInterval(() => {
      const listening = entries.find((e) => e.event === 'listening');
      if (listening?.url === undefined) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(replica(listening.url));
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`replica ${id} exited with ${code} before listening: ${stderr}`));
    });
  });
}
