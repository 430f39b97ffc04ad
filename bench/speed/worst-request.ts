import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { searchThreadsFlag, spawnServer } from '../lib/child-process.js';
import { flagValue } from '../lib/flags.js';
import { percentile } from '../lib/metrics.js';
import { labelledSets } from '../queries.js';

/**
 * `npx tsx bench/speed/worst-request.ts [--search-threads=<n>] [--out=<dir>]`: how long `/healthz` takes
 * while the heaviest requests one can send under the body limit are running. The compiled server
 * (`serve`, default settings unless `--search-threads` sets the pool's size) on the Argo CD index gets, from 8 clients at once and over and over:
 * SearchDocs with the longest search term allowed (1,000 characters of the corpus's most common
 * words, so every term matches thousands of sections), and a batch of 100 such calls (refused
 * whole, since batches of tool calls left MCP). Meanwhile /healthz is asked every 20 ms. Writes
 * worst-request.json to bench/results/ or `--out`.
 */

const CLIENTS = 8;
const SECONDS = 20;

const COMMON = 'application sync argocd cluster resource repository git kubernetes server config status project';

function heavyTerm(): string {
  let term = '';
  while (term.length + COMMON.length + 1 <= 1000) term += `${COMMON} `;
  return term.trim();
}

async function post(url: string, body: unknown, session?: string): Promise<{ status: number; session?: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, session: res.headers.get('mcp-session-id') ?? undefined };
}

async function client(url: string, stopAt: number, tally: { searches: number; batches: number; refused: number }) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'worst', version: '1' } },
  });
  const session = init.session;
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'SearchDocs', arguments: { searchTerm: heavyTerm() } },
  });
  for (let i = 1; Date.now() < stopAt; i++) {
    await post(url, call(i), session);
    tally.searches++;
    const batch = await post(
      url,
      Array.from({ length: 100 }, (_, k) => call(i * 1000 + k)),
      session,
    );
    tally.batches++;
    if (batch.status >= 400) tally.refused++;
  }
}

async function main(): Promise<void> {
  const log = (line: string) => console.error(`[worst-request] ${line}`);
  const serverOptions = searchThreadsFlag();
  const set = labelledSets(projectRoot()).find((s) => s.name === 'argocd');
  if (!set) throw new Error('the Argo CD query set is missing');
  const indexDir = join(cacheDirOf(process.env), 'bench', 'argocd-index');
  await buildIndex({ corpusDirs: [set.corpusDir], outDir: indexDir, cacheDir: cacheDirOf(process.env) });
  const server = await spawnServer(indexDir, log, serverOptions);
  const healthz = server.url.replace(/\/docs$/, '/healthz');
  const tally = { searches: 0, batches: 0, refused: 0 };
  const latencies: number[] = [];
  const stopAt = Date.now() + SECONDS * 1000;
  try {
    const load = Promise.all(Array.from({ length: CLIENTS }, () => client(server.url, stopAt, tally)));
    while (Date.now() < stopAt) {
      const t0 = performance.now();
      const res = await fetch(healthz);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    await load;
  } finally {
    await server.stop();
  }
  const report = {
    clients: CLIENTS,
    seconds: SECONDS,
    searchTermChars: heavyTerm().length,
    ...tally,
    healthz: {
      probes: latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: Math.max(...latencies),
    },
  };
  const out = flagValue('out') ?? join(projectRoot(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'worst-request.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

await main();
