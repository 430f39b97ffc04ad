/** Ranking metrics over graded judgements (grade 0 = not relevant), as pure functions. */

export type Judgements = ReadonlyMap<string, number>;

export function dcg(ranked: readonly string[], judged: Judgements, k: number): number {
  let sum = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    const grade = judged.get(doc) ?? 0;
    sum += (2 ** grade - 1) / Math.log2(i + 2);
  });
  return sum;
}

export function ndcg(ranked: readonly string[], judged: Judgements, k = 10): number {
  const ideal = [...judged.entries()].sort((a, b) => b[1] - a[1]).map(([doc]) => doc);
  const best = dcg(ideal, judged, k);
  return best === 0 ? 0 : dcg(ranked, judged, k) / best;
}

export function recall(ranked: readonly string[], judged: Judgements, k: number): number {
  const relevant = [...judged.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((d) => (judged.get(d) ?? 0) > 0).length / relevant;
}

export function reciprocalRank(ranked: readonly string[], judged: Judgements, k = 10): number {
  const i = ranked.slice(0, k).findIndex((d) => (judged.get(d) ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function hitAt1(ranked: readonly string[], judged: Judgements): number {
  return ranked.length > 0 && (judged.get(ranked[0]!) ?? 0) > 0 ? 1 : 0;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
