import { seededRandom } from './random.js';
/**
 * Paired comparison of two systems on the same queries: per-query differences (b − a), their
 * mean, a two-sided sign-flip randomization test and a bootstrap 95 % interval of the mean
 * difference. Under the null hypothesis that the systems are exchangeable, each difference is as
 * likely to have either sign; the p-value is the share of sign assignments whose mean difference
 * is at least as far from zero as the observed one. With up to EXACT_LIMIT non-zero differences
 * every assignment is enumerated (the p-value is exact); beyond, `rounds` seeded random ones are
 * drawn. Pure and deterministic for a given seed.
 */

export const EXACT_LIMIT = 16;
const DEFAULT_ROUNDS = 10_000;
const DEFAULT_SEED = 12;
/** Differences are sums of per-query scores; this absorbs their floating-point noise. */
const EPSILON = 1e-9;

export interface PairedOptions {
  rounds?: number;
  seed?: number;
}

export interface PairedTest {
  queries: number;
  meanA: number;
  meanB: number;
  /** Mean of b − a. */
  meanDifference: number;
  /** Queries on which b scored higher, lower. */
  better: number;
  worse: number;
  /** Two-sided p-value of the sign-flip test. */
  p: number;
  exact: boolean;
  /** Bootstrap 95 % interval of the mean difference. */
  ci95: [number, number];
}

export class PairedInputError extends Error {}

export function signFlipP(differences: readonly number[], options: PairedOptions = {}): { p: number; exact: boolean } {
  const nonZero = differences.filter((d) => Math.abs(d) > EPSILON);
  if (nonZero.length === 0) return { p: 1, exact: true };
  const observed = Math.abs(nonZero.reduce((a, b) => a + b, 0));
  if (nonZero.length <= EXACT_LIMIT) {
    let extreme = 0;
    const assignments = 2 ** nonZero.length;
    for (let mask = 0; mask < assignments; mask++) {
      let sum = 0;
      for (let i = 0; i < nonZero.length; i++) sum += mask & (1 << i) ? -nonZero[i]! : nonZero[i]!;
      if (Math.abs(sum) >= observed - EPSILON) extreme++;
    }
    return { p: extreme / assignments, exact: true };
  }
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  let extreme = 0;
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (const d of nonZero) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum) >= observed - EPSILON) extreme++;
  }
  // The observed assignment counts as one of the draws, so p is never 0.
  return { p: (extreme + 1) / (rounds + 1), exact: false };
}

export function bootstrapInterval(differences: readonly number[], options: PairedOptions = {}): [number, number] {
  if (differences.length === 0) return [0, 0];
  const rounds = Math.min(options.rounds ?? DEFAULT_ROUNDS, 2000);
  const random = seededRandom((options.seed ?? DEFAULT_SEED) + 1);
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (let i = 0; i < differences.length; i++) sum += differences[Math.floor(random() * differences.length)]!;
    means.push(sum / differences.length);
  }
  means.sort((x, y) => x - y);
  return [means[Math.floor(0.025 * (rounds - 1))]!, means[Math.ceil(0.975 * (rounds - 1))]!];
}

/** Compares b with a; `a[i]` and `b[i]` must be the same query's scores. */
export function pairedTest(a: readonly number[], b: readonly number[], options: PairedOptions = {}): PairedTest {
  if (a.length !== b.length)
    throw new PairedInputError(`paired scores need the same queries: ${a.length} against ${b.length}`);
  const differences = a.map((x, i) => b[i]! - x);
  const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
  const { p, exact } = signFlipP(differences, options);
  return {
    queries: a.length,
    meanA: mean(a),
    meanB: mean(b),
    meanDifference: mean(differences),
    better: differences.filter((d) => d > EPSILON).length,
    worse: differences.filter((d) => d < -EPSILON).length,
    p,
    exact,
    ci95: bootstrapInterval(differences, options),
  };
}

/** Pairs two systems' per-query records by id (both must hold the same ids) and compares one metric. */
export function pairedByQuery<T extends { id: string }>(
  a: readonly T[],
  b: readonly T[],
  metric: (record: T) => number,
  options: PairedOptions = {},
): PairedTest {
  const byId = new Map(b.map((r) => [r.id, r]));
  if (byId.size !== a.length || a.some((r) => !byId.has(r.id)))
    throw new PairedInputError('paired scores need the same queries in both systems');
  return pairedTest(
    a.map(metric),
    a.map((r) => metric(byId.get(r.id)!)),
    options,
  );
}
