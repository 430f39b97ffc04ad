import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import type { Embedder } from '../../src/embedding/types.js';
import { healthProbe, latencyOf, type Latency, loopUntil, message, modernHeaders, post } from './abuse-clients.js';
import { memoryOf, spawnServer } from '../lib/child-process.js';
import { readyBuiltAt } from './abuse.js';

/**
 * The soak (issue 40, "Watch"): `svc-docs serve --watch` on a copy of the Argo CD corpus, one of
 * its pages edited every EDIT_EVERY_MS (each edit a reindex and a reload), while 16 clients search
 * without pause, for `minutes` (30 by default: `--parts=soak --soak-minutes=30`). The server's RSS
 * is read every 5 s; the report compares the end with minute 5 (the reference minute: half the run
 * when it is shorter than 10 minutes). Goal: the end within 1.2× minute 5.
 */

const CLIENTS = 16;
const EDIT_EVERY_MS = 4000;
const SAMPLE_EVERY_MS = 5000;
const TERMS = ['sync waves hooks', 'application health checks', 'rbac policy csv', 'repository credentials ssh'];

export interface SoakReport {
  minutes: number;
  clients: number;
  editEverySeconds: number;
  requests: number;
  statuses: Record<string, number>;
  edits: number;
  reloads: number;
  healthz: Latency;
  rss: { minute: number; mb: number }[];
  referenceMinute: number;
  rssAtReferenceMB: number;
  rssEndMB: number;
  endOverReference: number;
}

const editedPage = (n: number) =>
  `# Soak notes\n\nEdit number ${n}: the heron count is ${n}, the sync window ${n % 60} minutes.\n`;

export async function measureSoak(options: {
  argocdCorpus: string;
  work: string;
  embedder: Embedder;
  minutes: number;
  log: (line: string) => void;
}): Promise<SoakReport> {
  const { minutes, log } = options;
  const dir = join(options.work, 'soak');
  rmSync(dir, { recursive: true, force: true });
  const corpus = join(dir, 'argocd');
  cpSync(options.argocdCorpus, corpus, { recursive: true });
  writeFileSync(join(corpus, 'soak-notes.md'), editedPage(0));
  const indexDir = join(dir, 'index');
  mkdirSync(indexDir, { recursive: true });
  await buildIndex({ corpusDirs: [corpus], outDir: indexDir, embedder: options.embedder });
  const server = await spawnServer(indexDir, log, {
    env: {
      SVC_DOCS_TRUSTED_PROXIES: 'loopback',
      SVC_DOCS_MAX_SESSIONS_PER_CLIENT: '',
      SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '',
    },
    args: ['--watch', '--corpus', corpus],
  });
  const base = server.url.replace(/\/docs$/, '');
  try {
    return await soak(server, base, corpus, minutes, log);
  } finally {
    await server.stop();
  }
}

async function soak(
  server: { url: string; pid: number },
  base: string,
  corpus: string,
  minutes: number,
  log: (line: string) => void,
): Promise<SoakReport> {
  const started = performance.now();
  const until = started + minutes * 60_000;
  const minute = () => (performance.now() - started) / 60_000;
  const rss: SoakReport['rss'] = [];
  const sampler = setInterval(() => {
    rss.push({ minute: Math.round(minute() * 100) / 100, mb: Math.round(memoryOf(server.pid).rssMB) });
    if (rss.length % 12 === 0) log(`soak: minute ${minute().toFixed(1)}, RSS ${rss.at(-1)!.mb} MB`);
  }, SAMPLE_EVERY_MS);
  const tally = { requests: 0, statuses: {} as Record<string, number>, edits: 0, reloads: 0 };
  const editor = (async () => {
    let seen = await readyBuiltAt(base);
    while (performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, EDIT_EVERY_MS));
      writeFileSync(join(corpus, 'soak-notes.md'), editedPage(++tally.edits));
      const now = await readyBuiltAt(base);
      if (now !== undefined && now !== seen) tally.reloads++, (seen = now);
    }
  })();
  const probe = healthProbe(base, 250);
  await loopUntil(until, CLIENTS, async (w) => {
    const term = TERMS[(tally.requests + w) % TERMS.length]!;
    const body = message('tools/call', { name: 'SearchDocs', arguments: { searchTerm: term } }, 1, true);
    const answer = await post(server.url, body, `10.7.0.${w}`, modernHeaders('tools/call', 'SearchDocs'));
    tally.requests++;
    tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
  });
  await editor;
  const healthz = latencyOf(await probe.stop());
  clearInterval(sampler);
  const end = memoryOf(server.pid).rssMB;
  const referenceMinute = Math.min(5, minutes / 2);
  const reference = rss.find((s) => s.minute >= referenceMinute)?.mb ?? end;
  return {
    minutes,
    clients: CLIENTS,
    editEverySeconds: EDIT_EVERY_MS / 1000,
    ...tally,
    healthz,
    rss,
    referenceMinute,
    rssAtReferenceMB: reference,
    rssEndMB: Math.round(end),
    endOverReference: Math.round((end / reference) * 100) / 100,
  };
}

export function renderSoakSummary(report: SoakReport): string {
  const failed = report.requests - (report.statuses['200'] ?? 0);
  return [
    '# Soak run',
    '',
    `\`svc-docs serve --watch\` (compiled) on a copy of the Argo CD corpus, one page edited every ${report.editEverySeconds} s, ${report.clients} clients searching without pause for ${report.minutes} minutes (bench/abuse/soak.ts; RSS every 5 s in soak.json). Goal: RSS at the end within 1.2× minute 5.`,
    '',
    '| minutes | requests | not 200 | edits | reloads seen | /healthz p50 / p99 / max ms | RSS at minute ' +
      `${report.referenceMinute} MB | RSS at the end MB | end / minute ${report.referenceMinute} |`,
    '|---|---|---|---|---|---|---|---|---|',
    `| ${report.minutes} | ${report.requests} | ${failed} | ${report.edits} | ${report.reloads} | ${report.healthz.p50Ms} / ${report.healthz.p99Ms} / ${report.healthz.maxMs} | ${report.rssAtReferenceMB} | ${report.rssEndMB} | ${report.endOverReference}× |`,
    '',
  ].join('\n');
}
