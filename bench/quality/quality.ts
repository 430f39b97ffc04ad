import MiniSearch from 'minisearch';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import type { Embedder } from '../../src/embedding/types.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import { RELEVANCE_LABELS, type RelevanceLabel } from '../../src/search/types.js';
import { hitAt1, mean, ndcg, recall, reciprocalRank } from '../lib/metrics.js';
import { judgements, QUERY_STYLES, type LabelledQuery, type QuerySet } from '../queries.js';

/** Search quality of each system on a labelled query set, overall and per query style. */

export interface Ranker {
  name: string;
  /** Document keys (`kb/path`) best first, and the best section's headings for each. */
  rank(query: string): Promise<{ docs: string[]; bestHeadings: string[][]; labels: RelevanceLabel[] }>;
  close(): Promise<void>;
}

export interface Scores {
  queries: number;
  ndcg10: number;
  recall5: number;
  recall10: number;
  mrr: number;
  hit1: number;
  /** Top result is a labelled page and its best section is (under) a labelled heading. */
  section1: number;
}

export interface SystemReport {
  system: string;
  overall: Scores;
  byStyle: Record<string, Scores>;
  /** Per query: its id and nDCG@10, to compare systems query by query. */
  perQuery: { id: string; style: string; ndcg10: number; top: string | undefined }[];
  /** For each label, how many results carried it and the share of those that were relevant. */
  labels?: Record<RelevanceLabel, { count: number; precision: number }>;
}

function score(set: QuerySet['queries'], runs: Awaited<ReturnType<Ranker['rank']>>[]): Scores {
  const per = set.map((q, i) => {
    const judged = judgements(q);
    const { docs, bestHeadings } = runs[i]!;
    const top = docs[0];
    const wanted = q.relevant.find((r) => r.doc === top)?.headings;
    const section1 = top && wanted?.some((h) => bestHeadings[0]?.includes(h)) ? 1 : 0;
    return {
      ndcg10: ndcg(docs, judged, 10),
      recall5: recall(docs, judged, 5),
      recall10: recall(docs, judged, 10),
      mrr: reciprocalRank(docs, judged, 10),
      hit1: hitAt1(docs, judged),
      section1,
    };
  });
  const avg = (k: keyof (typeof per)[number]) => mean(per.map((p) => p[k]));
  return {
    queries: set.length,
    ndcg10: avg('ndcg10'),
    recall5: avg('recall5'),
    recall10: avg('recall10'),
    mrr: avg('mrr'),
    hit1: avg('hit1'),
    section1: avg('section1'),
  };
}

export async function evaluate(set: QuerySet, ranker: Ranker): Promise<SystemReport> {
  const runs: Awaited<ReturnType<Ranker['rank']>>[] = [];
  for (const q of set.queries) runs.push(await ranker.rank(q.query));
  const byStyle: Record<string, Scores> = {};
  for (const style of QUERY_STYLES) {
    const idx = set.queries.map((q, i) => (q.style === style ? i : -1)).filter((i) => i >= 0);
    if (idx.length > 0)
      byStyle[style] = score(
        idx.map((i) => set.queries[i]!),
        idx.map((i) => runs[i]!),
      );
  }
  const perQuery = set.queries.map((q, i) => ({
    id: q.id,
    style: q.style,
    ndcg10: ndcg(runs[i]!.docs, judgements(q), 10),
    top: runs[i]!.docs[0],
  }));
  const report: SystemReport = { system: ranker.name, overall: score(set.queries, runs), byStyle, perQuery };
  if (runs.some((r) => r.labels.length > 0)) report.labels = labelPrecision(set.queries, runs);
  return report;
}

function labelPrecision(queries: LabelledQuery[], runs: Awaited<ReturnType<Ranker['rank']>>[]): SystemReport['labels'] {
  const out = Object.fromEntries(RELEVANCE_LABELS.map((l) => [l, { count: 0, relevant: 0 }])) as Record<
    RelevanceLabel,
    { count: number; relevant: number }
  >;
  queries.forEach((q, i) => {
    const judged = judgements(q);
    runs[i]!.labels.forEach((label, r) => {
      out[label].count++;
      if ((judged.get(runs[i]!.docs[r]!) ?? 0) > 0) out[label].relevant++;
    });
  });
  return Object.fromEntries(
    RELEVANCE_LABELS.map((l) => [
      l,
      { count: out[l].count, precision: out[l].count === 0 ? 0 : out[l].relevant / out[l].count },
    ]),
  ) as NonNullable<SystemReport['labels']>;
}

export async function engineRanker(
  name: string,
  indexDir: string,
  embedder: Embedder,
  policy: SearchPolicy = {},
  limit = 10,
): Promise<Ranker & { engine: LoadedEngine }> {
  const engine = await openEngine(indexDir, { embedder }, policy);
  return {
    name,
    engine,
    async rank(query) {
      const results = await engine.search(query, { limit });
      return {
        docs: results.map((r) => `${r.source}/${r.path}`),
        bestHeadings: results.map((r) => r.sections.find((s) => s.isBest)?.headings ?? []),
        labels: results.map((r) => r.relevance.label),
      };
    },
    close: () => engine.close(),
  };
}

/** What a user could pick instead: MiniSearch with its default settings, one entry per file. */
export function miniSearchRanker(corpusDirs: string[], limit = 10): Ranker {
  const docs = loadCorpus(corpusDirs).map((d, id) => ({ id, key: `${d.kb}/${d.path}`, text: d.source }));
  const mini = new MiniSearch<{ id: number; key: string; text: string }>({ fields: ['text'], storeFields: ['key'] });
  mini.addAll(docs);
  return {
    name: 'minisearch (defaults)',
    async rank(query) {
      const hits = mini.search(query).slice(0, limit);
      return { docs: hits.map((h) => docs[h.id as number]!.key), bestHeadings: hits.map(() => []), labels: [] };
    },
    async close() {},
  };
}
