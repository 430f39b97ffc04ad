import type { SearchResult } from '../../src/search/types.js';
import type { AnswerSystem } from './answers.js';
import { type LabelledQuery, type QuerySet, splitHalf } from '../queries.js';
import { RESULT_COUNT } from './response.js';

/**
 * The engine's ranked results for every query of one corpus, searched once per run: every grid
 * point of the left-out tuning (bench/quality/loco-fit.ts) and every report re-renders these, never
 * searches again. The first ten pages are searched once; the response takes the first
 * RESULT_COUNT of them (the engine's top k is the first k of its top ten: one ranking, cut).
 */

export interface CachedQuery {
  id: string;
  query: string;
  /** The labelled query; absent for a question the docs do not cover. */
  labelled?: LabelledQuery;
  /** The first RESULT_COUNT results, whole windows. */
  results: SearchResult[];
  /** The first ten pages (`kb/path`) and their confidences, for nDCG@10 and label calibration. */
  ranking: string[];
  confidences: number[];
}

export interface HalfRuns {
  answerable: CachedQuery[];
  offTopic: CachedQuery[];
}

export interface CorpusRuns {
  name: string;
  tuning: HalfRuns;
  heldOut: HalfRuns;
}

const RANKED = 10;

async function cached(system: AnswerSystem, id: string, query: string, labelled?: LabelledQuery): Promise<CachedQuery> {
  const ten = await system.search(query, RANKED);
  return {
    id,
    query,
    ...(labelled !== undefined && { labelled }),
    results: ten.slice(0, RESULT_COUNT),
    ranking: ten.map((r) => `${r.source}/${r.path}`),
    confidences: ten.map((r) => r.confidence),
  };
}

async function half(set: QuerySet, system: AnswerSystem, which: 'tuning' | 'heldout'): Promise<HalfRuns> {
  const part = splitHalf(set, which);
  const answerable: CachedQuery[] = [];
  for (const q of part.queries) answerable.push(await cached(system, q.id, q.query, q));
  const offTopic: CachedQuery[] = [];
  for (const q of part.offTopic) offTopic.push(await cached(system, q.id, q.query));
  return { answerable, offTopic };
}

/** Every query of `set`, both halves and the off-topic lists, searched once with `system`. */
export async function searchOnce(set: QuerySet, system: AnswerSystem): Promise<CorpusRuns> {
  return { name: set.name, tuning: await half(set, system, 'tuning'), heldOut: await half(set, system, 'heldout') };
}

/** The cached results as an AnswerSystem, each result set passed through `transform` (a fit). */
export function cachedSystem(
  name: string,
  queries: readonly CachedQuery[],
  transform: (results: readonly SearchResult[]) => SearchResult[],
): AnswerSystem {
  const byQuery = new Map(queries.map((q) => [q.query, q]));
  const of = (query: string) => {
    const q = byQuery.get(query);
    if (q === undefined) throw new Error(`query not searched in this run: ${JSON.stringify(query)}`);
    return q;
  };
  return {
    name,
    search: async (query, limit) => {
      if (limit > RESULT_COUNT) throw new Error(`the cache holds ${RESULT_COUNT} results a query, not ${limit}`);
      return transform(of(query).results.slice(0, limit));
    },
    ranking: async (query) => of(query).ranking,
    close: async () => {},
  };
}
