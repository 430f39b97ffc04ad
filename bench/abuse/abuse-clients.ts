import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { percentile } from '../lib/metrics.js';

/**
 * Clients of the abuse run, over raw HTTP: what an attacker sends (batches, unread answers,
 * abandoned sessions, hostile paths), each as one client by its X-Forwarded-For (the server
 * trusts loopback as a proxy in this run), and the /healthz probe that times the server meanwhile.
 */

export const MODERN = '2026-07-28';

export interface Answer {
  status: number;
  bytes: number;
  sessionId?: string;
  text: string;
}

/** One POST to /docs as client `client`; the answer's text is kept only up to 64 KB. */
export function post(url: string, body: string, client: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(Buffer.byteLength(body)),
          'x-forwarded-for': client,
          ...headers,
        },
      },
      (res) => {
        let bytes = 0;
        let text = '';
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (text.length < 65_536) text += chunk.toString('utf8');
        });
        res.on('end', () => {
          const sessionId = res.headers['mcp-session-id'];
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            text,
            ...(typeof sessionId === 'string' ? { sessionId } : {}),
          });
        });
        res.on('error', () => resolve({ status: 0, bytes, text }));
      },
    );
    req.on('error', () => resolve({ status: 0, bytes: 0, text: '' }));
    req.end(body);
  });
}

/** A 2025-era request (no session) or, with `modern`, a 2026-07-28 one with its envelope and headers. */
export function message(method: string, params: Record<string, unknown>, id: number, modern = false): string {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'abuse', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: modern ? { ...params, _meta: meta } : params });
}

export function modernHeaders(method: string, name?: string): Record<string, string> {
  return { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abuse', version: '1' } },
});

export interface Latency {
  probes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function latencyOf(ms: readonly number[]): Latency {
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    probes: ms.length,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    maxMs: round(Math.max(0, ...ms)),
  };
}

/**
 * The probe, in a thread of its own: GET /healthz, timed in ms (Infinity when it fails), then a
 * pause, until told to stop. Plain JavaScript, so the thread needs no TypeScript loader.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const times = [];
let running = true;
parentPort.on('message', () => (running = false));
const once = () => new Promise((resolve) => {
  const started = performance.now();
  const req = request(workerData.url, { agent: false }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : Infinity));
  });
  req.on('error', () => resolve(Infinity));
  req.end();
});
(async () => {
  while (running) {
    times.push(await once());
    await new Promise((resolve) => setTimeout(resolve, workerData.everyMs));
  }
  parentPort.postMessage(times);
})();
`;

/**
 * Asks /healthz every `everyMs` until stopped; the times, for the phase that was running. The
 * probe runs on a thread of its own: on the benchmark's main thread it waited behind the phase's
 * own clients (200 sockets opened at once held that loop 212 ms while the server's was held 215
 * ms, and /healthz read 767 ms), which timed the benchmark, not the server.
 */
export function healthProbe(base: string, everyMs = 50): { stop(): Promise<number[]> } {
  const thread = new Worker(PROBE, { eval: true, workerData: { url: `${base}/healthz`, everyMs } });
  const times = new Promise<number[]>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  return {
    async stop() {
      thread.postMessage('stop');
      const result = await times;
      await thread.terminate();
      return result;
    },
  };
}

/**
 * The server's own event-loop delay, most in ms since the last call (prom-client's
 * nodejs_eventloop_lag_max_seconds on /metrics, whose histogram is reset at each scrape; the first
 * scrape starts it): what separates a server that stalled from a probe that waited on a loaded
 * machine or behind sockets. Undefined when /metrics does not answer.
 */
export async function serverLoopDelayMaxMs(base: string): Promise<number | undefined> {
  const text = await getText(`${base}/metrics`);
  const line = text === undefined ? null : /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
  return line === null ? undefined : Math.round(Number(line[1]) * 10_000) / 10;
}

/** A GET's whole answer as text, on a connection of its own; undefined when the server does not answer. */
export function getText(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** A client that sends one request and never reads a byte of the answer, until destroyed. */
export function unreadRequest(port: number, body: string, client: string, headers: Record<string, string>): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.pause();
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(
    `POST /docs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `X-Forwarded-For: ${client}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

/** Runs `fn` over and over until `until` (a time from performance.now()), as `workers` loops at once. */
export async function loopUntil(
  until: number,
  workers: number,
  fn: (worker: number) => Promise<unknown>,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < until) await fn(worker);
    }),
  );
}
