import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../indexer/build.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import { cacheDir, projectRoot } from '../src/paths.js';
import { measureIndexing, type IndexingReport } from './indexing.js';
import { measureLatency, type LatencyReport } from './latency.js';
import { engineRanker, evaluate, miniSearchRanker, type SystemReport } from './quality.js';
import { loadQuerySet, type QuerySet } from './queries.js';
import { renderSummary } from './summary.js';

/**
 * `npm run bench` (full) and `npm run bench -- --quick` (CI): quality of every system on the
 * labelled sets, query latency by stage, and indexing speed, all measured in this one run on
 * this machine. Results: bench/results/results.json and bench/results/summary.md. The run fails
 * only when a benchmark is broken (an exception), never because the machine is slow.
 */

export interface QualityReport {
  set: string;
  corpus: string;
  queries: number;
  documents: number;
  sections: number;
  systems: SystemReport[];
}

export interface BenchResults {
  mode: 'quick' | 'full';
  startedAt: string;
  machine: { node: string; platform: string; cpus: number; memoryGiB: number };
  model: string;
  quality: QualityReport[];
  latency?: LatencyReport;
  indexing?: IndexingReport;
}

async function qualityOf(set: QuerySet, indexRoot: string, embedder: Awaited<ReturnType<typeof loadEmbedder>>): Promise<QualityReport> {
  const indexDir = join(indexRoot, `${set.name}-index`);
  const built = await buildIndex({ corpusDirs: [set.corpusDir], outDir: indexDir, embedder });
  const rankers = [
    miniSearchRanker([set.corpusDir]),
    await engineRanker('bm25 (ours)', indexDir, embedder, { retrieval: 'lexical' }),
    await engineRanker('vector (hnsw)', indexDir, embedder, { retrieval: 'vector' }),
    await engineRanker('vector (exact)', indexDir, embedder, { retrieval: 'vector', vectorSearch: 'exact' }),
    await engineRanker('hybrid rrf', indexDir, embedder, { fusion: { method: 'rrf', expansionTerms: 0 } }),
    await engineRanker('hybrid weighted, no expansion', indexDir, embedder, { fusion: { expansionTerms: 0 } }),
    await engineRanker('hybrid (shipped)', indexDir, embedder),
  ];
  const systems: SystemReport[] = [];
  for (const ranker of rankers) {
    systems.push(await evaluate(set, ranker));
    await ranker.close();
  }
  return { set: set.name, corpus: set.corpus, queries: set.queries.length, documents: built.documents, sections: built.sections, systems };
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const partsArg = process.argv.find((a) => a.startsWith('--parts='));
  const parts = new Set((partsArg?.slice('--parts='.length) ?? 'quality,latency,indexing').split(','));
  const root = projectRoot();
  const outDir = join(root, 'bench', 'results');
  const work = join(cacheDir(), 'bench');
  mkdirSync(outDir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const log = (line: string) => console.error(`[bench] ${line}`);

  const embedder = await loadEmbedder({ log });
  const sets = ['svc', 'argocd'].map((name) => loadQuerySet(join(root, 'bench', 'queries', `${name}.json`)));
  const results: BenchResults = {
    mode: quick ? 'quick' : 'full',
    startedAt: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: (await import('node:os')).cpus().length, memoryGiB: Math.round((await import('node:os')).totalmem() / 2 ** 30) },
    model: embedder.modelId,
    quality: [],
  };
  for (const set of sets) {
    if (!parts.has('quality')) break;
    log(`quality: ${set.name} (${set.queries.length} queries)`);
    results.quality.push(await qualityOf(set, work, embedder));
  }
  const argocd = sets.find((s) => s.name === 'argocd')!;
  if (parts.has('latency')) {
    log('latency by stage');
    const indexDir = join(work, 'argocd-index');
    await buildIndex({ corpusDirs: [argocd.corpusDir], outDir: indexDir, embedder });
    results.latency = await measureLatency(indexDir, embedder, argocd.queries.map((q) => q.query), quick ? 2 : 10);
  }
  if (parts.has('indexing')) {
    log('indexing speed');
    results.indexing = await measureIndexing(argocd.corpusDir, join(work, 'indexing'), embedder);
  }
  await embedder.dispose();

  const suffix = quick ? '-quick' : '';
  writeFileSync(join(outDir, `results${suffix}.json`), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(outDir, `summary${suffix}.md`), renderSummary(results));
  log(`wrote bench/results/results${suffix}.json and summary${suffix}.md`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
