import { mean } from '../lib/metrics.js';

/**
 * Leave-one-corpus-out choice of a query-side setting (issue 39): for each corpus, the variant
 * chosen on the *other* corpora's tuning halves is the one it is judged with. Pure: the runner
 * (bench/quality/paraphrase-loco.ts) hands in per-query outcomes, and `chooseFor` is given only what the
 * choice may see, so a left-out corpus's queries cannot steer its own setting.
 */

/** One query's answer-level outcome under one variant. */
export interface Outcome {
  id: string;
  style: string;
  hit1: number;
  hit5: number;
  hit5Full: number;
}

/** Outcomes of one variant on one corpus's tuning half. */
export interface TrainingCorpus {
  corpus: string;
  /** By variant, in variant order; variant 0 is the baseline. */
  byVariant: readonly (readonly Outcome[])[];
}

export class LeakedCorpusError extends Error {
  override name = 'LeakedCorpusError';
}

/** How much a regression of the other query styles counts against a paraphrase gain. */
export const OTHER_STYLES_PENALTY = 1;

const paraphrase = (o: readonly Outcome[]) => o.filter((q) => q.style === 'paraphrase');
const others = (o: readonly Outcome[]) => o.filter((q) => q.style !== 'paraphrase');
const avg = (o: readonly Outcome[], k: 'hit1' | 'hit5' | 'hit5Full') => (o.length === 0 ? 0 : mean(o.map((q) => q[k])));

/**
 * A variant's merit on one training corpus: its paraphrase whole-window Hit@5, less what the other
 * styles lose against the baseline (Hit@1 and Hit@5 at the response budget, each counted).
 */
export function merit(outcomes: readonly Outcome[], baseline: readonly Outcome[]): number {
  const loss = (k: 'hit1' | 'hit5') => Math.max(0, avg(others(baseline), k) - avg(others(outcomes), k));
  return avg(paraphrase(outcomes), 'hit5Full') - OTHER_STYLES_PENALTY * (loss('hit1') + loss('hit5'));
}

/**
 * The variant (index) chosen for `leftOut`: the best mean merit over the training corpora, the
 * earlier variant on a tie (the baseline first). Refuses training data that names `leftOut`.
 */
export function chooseFor(leftOut: string, training: readonly TrainingCorpus[]): number {
  if (training.some((t) => t.corpus === leftOut))
    throw new LeakedCorpusError(`the choice for ${leftOut} was handed ${leftOut}'s own queries`);
  if (training.length === 0) return 0;
  const variants = training[0]!.byVariant.length;
  let best = 0;
  let bestMerit = -Infinity;
  for (let v = 0; v < variants; v++) {
    const m = mean(training.map((t) => merit(t.byVariant[v]!, t.byVariant[0]!)));
    if (m > bestMerit + 1e-9) {
      best = v;
      bestMerit = m;
    }
  }
  return best;
}

/** Scores a corpus is judged on, for one variant: overall, paraphrases, and the other styles. */
export interface Judged {
  queries: number;
  paraphrases: number;
  paraHit5Full: number;
  paraHit5: number;
  otherHit1: number;
  otherHit5: number;
  otherHit5Full: number;
}

export function judge(outcomes: readonly Outcome[]): Judged {
  const p = paraphrase(outcomes);
  const o = others(outcomes);
  return {
    queries: outcomes.length,
    paraphrases: p.length,
    paraHit5Full: avg(p, 'hit5Full'),
    paraHit5: avg(p, 'hit5'),
    otherHit1: avg(o, 'hit1'),
    otherHit5: avg(o, 'hit5'),
    otherHit5Full: avg(o, 'hit5Full'),
  };
}
