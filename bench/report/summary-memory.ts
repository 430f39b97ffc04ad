import type { HttpReport } from '../speed/http.js';

const mb1 = (x: number) => Math.round(x * 10) / 10;

/** The memory section of summary.md: where the server's megabytes go (bench/speed/memory-probe.ts), and RSS over disk. */
export function memoryLines(h: HttpReport): string[] {
  const m = h.memory;
  const disk = m.disk.indexMB + m.disk.modelMB;
  const most = h.levels[h.levels.length - 1]!;
  const one = h.levels[0]!;
  const parts = Object.entries(m.index.parts)
    .map(([name, value]) => `${name.replace(/MB$/, '')} ${value}`)
    .join(', ');
  return [
    '## Memory (argocd index), MB',
    '',
    `Where the megabytes go, step by step in a fresh process loading what the server loads, with the V8 settings the server sets (${m.v8Flags?.map((f) => `\`${f}\``).join(' ') ?? 'none'}; src/cli/server-heap.ts) (\`bench/speed/memory-probe.ts\`; RSS after a full GC at each step):`,
    '',
    '| step | MB |',
    '|---|---|',
    `| Node and the imports, before loading anything | ${m.baseRssMB} |`,
    `| the model (table rows read from its file; ${m.model.externalMB} MB outside the V8 heap) | ${m.model.rssMB} |`,
    `| the index as read (${parts}) | ${m.index.rssMB} |`,
    `| the typo dictionary, compact (as the Set it used to be: ${m.dictionary.asSetMB}) | ${m.dictionary.compactMB} |`,
    m.pool.idleWorkerMB === undefined
      ? `| the search pool's first worker (thread, its imports and its view of the index) | ${m.pool.oneWorkerMB} |`
      : `| the search pool's first worker: its thread, V8 heap and imports ${m.pool.idleWorkerMB}; the index read again and loaded into the pool (what the main thread keeps of it, the shared arrays, the worker's searcher) ${mb1(m.pool.oneWorkerMB - m.pool.idleWorkerMB)} | ${m.pool.oneWorkerMB} |`,
    `| each further worker (measured by starting two; the server starts ${m.pool.threads} on this machine: one per core but the main thread's) | ${m.pool.perExtraWorkerMB} |`,
    `| **after load and a burst of searches** (V8 heap used ${m.afterLoad.heapUsedMB}, main thread's young generation ${m.afterLoad.newSpaceMB ?? '?'}) | **${m.afterLoad.rssMB}** |`,
    '',
    `On disk: index ${m.disk.indexMB} MB, model ${m.disk.modelMB} MB. RSS over index + model on disk (goal: ≤ 3×): ${m.rssOverDisk.toFixed(2)}× after load in the probe; the served process above ${(one.serverRssMB / disk).toFixed(2)}× after 1 session, ${(most.serverRssMB / disk).toFixed(2)}× after ${most.sessions}.`,
    '',
  ];
}
