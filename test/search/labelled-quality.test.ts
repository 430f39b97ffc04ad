import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgements, loadQuerySet, splitHalf, type LabelledQuery } from '../../bench/queries.js';
import { ndcg } from '../../bench/lib/metrics.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import { RELEVANCE_LABELS, type RelevanceLabel } from '../../src/search/types.js';
import { bundledIndex } from '../helpers/index-fixture.js';

/**
 * What the shipped ranking and labels mean, pinned on the bundled corpus's labelled set
 * (bench/queries/svc.json): a one-line change to a label threshold or a ranking feature's
 * default shows up here, not only in a benchmark nobody reruns. Tuning half only: a failing test
 * invites a ranking change, and held-out queries must never shape one.
 */

const queries = splitHalf(loadQuerySet(join(projectRoot(), 'bench', 'queries', 'svc.json')), 'tuning').queries;
let engine: LoadedEngine;
beforeAll(async () => {
  engine = await openEngine(bundledIndex());
});
afterAll(async () => engine?.close());

async function meanNdcg(policy: SearchPolicy): Promise<number> {
  const variant = await openEngine(bundledIndex(), { embedder: engine.embedder }, policy);
  try {
    let sum = 0;
    for (const q of queries)
      sum += ndcg(
        (await variant.search(q.query, { limit: 10 })).map((r) => `${r.source}/${r.path}`),
        judgements(q),
        10,
      );
    return sum / queries.length;
  } finally {
    await variant.close();
  }
}

describe('relevance labels on the labelled set', () => {
  it('mean what they say: precision falls from label to label, and "Excellent match" is right at least 80 % of the time', async () => {
    const tally = new Map<RelevanceLabel, { shown: number; relevant: number }>(
      RELEVANCE_LABELS.map((l) => [l, { shown: 0, relevant: 0 }]),
    );
    const judge = (q: LabelledQuery, doc: string) => (judgements(q).get(doc) ?? 0) > 0;
    for (const q of queries) {
      for (const r of await engine.search(q.query, { limit: 5 })) {
        const t = tally.get(r.relevance.label)!;
        t.shown++;
        if (judge(q, `${r.source}/${r.path}`)) t.relevant++;
      }
    }
    const precision = RELEVANCE_LABELS.map((l) => tally.get(l)!)
      .filter((t) => t.shown >= 5)
      .map((t) => t.relevant / t.shown);
    expect(precision.length).toBeGreaterThanOrEqual(3);
    expect(tally.get('Excellent match')!.relevant / tally.get('Excellent match')!.shown).toBeGreaterThanOrEqual(0.8);
    for (let i = 1; i < precision.length; i++) expect(precision[i]!).toBeLessThanOrEqual(precision[i - 1]!);
  });
});

describe('what each ranking feature contributes on the labelled set', () => {
  let shipped: number;
  beforeAll(async () => {
    shipped = await meanNdcg({});
  });

  it('query rewrites (compounds, abbreviations, question filler) raise nDCG@10', async () => {
    expect(await meanNdcg({ rewrites: false })).toBeLessThan(shipped);
  });

  it("counting a page's supporting sections raises nDCG@10", async () => {
    expect(await meanNdcg({ fusion: { documentSupportWeight: 0 } })).toBeLessThan(shipped);
  });
});
