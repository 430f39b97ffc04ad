import type { Embedder } from '../../src/embedding/types.js';
import { bm25FloorSystem, engineSystem, evaluateAnswers, type AnswerReport } from './answers.js';
import { evaluateOffTopic, type OffTopicReport } from './offtopic.js';
import { pairedByQuery, type PairedTest } from '../lib/paired.js';
import { splitHalf, type QuerySet } from '../queries.js';

/**
 * Per corpus, on the held-out half only: the shipped engine and plain BM25 with ±15-section
 * windows, answered and rendered as the server does and judged at the answer, the paired test of
 * shipped against BM25, and what both hand back for questions the docs do not cover.
 */

export interface HeldOutReport {
  set: string;
  /** Held-out queries (reported) and tuning queries (never reported). */
  queries: number;
  tuningQueries: number;
  shipped: AnswerReport;
  floor: AnswerReport;
  /** The held-out half's questions on subjects the docs do not cover. */
  offTopic: { shipped: OffTopicReport; floor: OffTopicReport };
  /** Shipped − BM25, paired per query. */
  paired: { hit1: PairedTest; hit5: PairedTest; ndcg10: PairedTest };
}

export async function heldOutComparison(set: QuerySet, indexDir: string, embedder: Embedder): Promise<HeldOutReport> {
  const heldOut = splitHalf(set, 'heldout');
  const shippedSystem = await engineSystem('svc-docs (shipped)', indexDir, embedder);
  const shipped = await evaluateAnswers(heldOut.queries, shippedSystem);
  const shippedOff = await evaluateOffTopic(heldOut, shippedSystem);
  await shippedSystem.close();
  const floorSystem = await bm25FloorSystem(indexDir);
  const floor = await evaluateAnswers(heldOut.queries, floorSystem);
  const floorOff = await evaluateOffTopic(heldOut, floorSystem);
  await floorSystem.close();
  const paired = (metric: (q: AnswerReport['perQuery'][number]) => number) =>
    pairedByQuery(floor.perQuery, shipped.perQuery, metric);
  return {
    set: set.name,
    queries: heldOut.queries.length,
    tuningQueries: set.queries.length - heldOut.queries.length,
    shipped,
    floor,
    offTopic: { shipped: shippedOff, floor: floorOff },
    paired: { hit1: paired((q) => q.hit1), hit5: paired((q) => q.hit5), ndcg10: paired((q) => q.ndcg10) },
  };
}
