import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import type { Embedder } from '../../src/embedding/types.js';
import { engineSystem } from './answers.js';
import { heldOutComparison, type HeldOutReport } from './heldout.js';
import { type CorpusRuns, searchOnce } from './loco-cache.js';
import { engineRanker, evaluate, miniSearchRanker, type SystemReport } from './quality.js';
import { splitHalf, type QuerySet } from '../queries.js';
import { misspelt } from './typos.js';

/**
 * The quality part of `npm run bench` for one labelled set: its index built once, the shipped
 * engine against plain BM25 on the held-out half, every system's ranking, typos, and every query
 * of both halves searched once with the shipped engine for the left-out fitting (bench/quality/loco-report.ts).
 */

export interface QualityReport {
  set: string;
  corpus: string;
  /** Held-out queries: every figure below is on the held-out half. */
  queries: number;
  documents: number;
  sections: number;
  /** The shipped engine against plain BM25 ±15 sections, as the assistant receives their answers. */
  answers: HeldOutReport;
  systems: SystemReport[];
  /** The same queries with one typo each (bench/quality/typos.ts): what typo tolerance is worth. */
  typos: SystemReport[];
  /** A few of those queries, to show what the typos look like. */
  typoExamples: string[];
}

/**
 * `--parts=leftout`: the left-out figures alone, without the quality part's other systems: each
 * set's index built (or found unchanged) and its queries searched once.
 */
export async function searchEverySet(
  sets: readonly QuerySet[],
  indexRoot: string,
  embedder: Embedder,
  log: (line: string) => void,
): Promise<CorpusRuns[]> {
  const runs: CorpusRuns[] = [];
  for (const set of sets) {
    log(`leftout: ${set.name} (${set.queries.length} queries)`);
    const indexDir = join(indexRoot, `${set.name}-index`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: indexDir, embedder });
    const shipped = await engineSystem('svc-docs (shipped)', indexDir, embedder);
    runs.push(await searchOnce(set, shipped));
    await shipped.close();
  }
  return runs;
}

export async function qualityOf(
  set: QuerySet,
  indexRoot: string,
  embedder: Embedder,
  runs: CorpusRuns[],
): Promise<QualityReport> {
  const indexDir = join(indexRoot, `${set.name}-index`);
  const built = await buildIndex({ corpusDirs: [set.corpusDir], outDir: indexDir, embedder });
  const shipped = await engineSystem('svc-docs (shipped)', indexDir, embedder);
  runs.push(await searchOnce(set, shipped));
  await shipped.close();
  const answers = await heldOutComparison(set, indexDir, embedder);
  const heldOut = splitHalf(set, 'heldout');
  const rankers = [
    miniSearchRanker([set.corpusDir]),
    await engineRanker('bm25f alone', indexDir, embedder, {
      retrieval: 'lexical',
      rewrites: false,
      fusion: { documentBreadthWeight: 0 },
    }),
    await engineRanker('bm25f + query rewrites + breadth', indexDir, embedder, { retrieval: 'lexical' }),
    await engineRanker('vector (hnsw)', indexDir, embedder, { retrieval: 'vector' }),
    await engineRanker('vector (exact)', indexDir, embedder, { retrieval: 'vector', vectorSearch: 'exact' }),
    await engineRanker('hybrid (shipped)', indexDir, embedder),
  ];
  const systems: SystemReport[] = [];
  for (const ranker of rankers) {
    systems.push(await evaluate(heldOut, ranker));
    await ranker.close();
  }
  const typoSet = misspelt(heldOut);
  const typoRankers = [
    miniSearchRanker([set.corpusDir]),
    await engineRanker('hybrid (shipped), no typo tolerance', indexDir, embedder, { typoTolerance: false }),
    await engineRanker('hybrid (shipped)', indexDir, embedder),
  ];
  const typos: SystemReport[] = [];
  for (const ranker of typoRankers) {
    typos.push(await evaluate(typoSet, ranker));
    await ranker.close();
  }
  const typoExamples = typoSet.queries.slice(0, 4).map((q) => q.query);
  return {
    set: set.name,
    corpus: set.corpus,
    queries: heldOut.queries.length,
    documents: built.documents,
    sections: built.sections,
    answers,
    systems,
    typos,
    typoExamples,
  };
}
