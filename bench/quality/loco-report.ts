import type { RelevanceThresholds } from '../../src/index/manifest.js';
import type { CorpusRuns } from './loco-cache.js';
import { fitLeftOut, type HeldOutFigures, heldOutWith, SHIPPED_FIT } from './loco-fit.js';
import { describeFit, FULL_AXES, type GridAxes, gridOf, QUICK_AXES } from './loco-grid.js';

/**
 * The left-out figures `npm run bench` reports: every corpus's held-out half answered with the fit
 * chosen on the other corpora's tuning halves (bench/quality/loco-fit.ts), next to the same half answered
 * with what ships today, worst corpus first.
 */

export interface LeftOutReport {
  set: string;
  /** The fit this corpus is judged with, and the corpora it was chosen on. */
  fit: { point: string; thresholds: RelevanceThresholds; chosenOn: string[]; tuningObjective: number };
  leftOut: HeldOutFigures;
  shipped: HeldOutFigures;
}

export interface LeftOutSummary {
  /** Renderings tried per left-out choice (each with every star rule), and the values along each axis. */
  gridPoints: number;
  axes: GridAxes;
  /** Worst corpus first (left-out Hit@5 within the budget, then Hit@1). */
  corpora: LeftOutReport[];
}

/** Worst first: the lower left-out Hit@5 within the budget, then the lower Hit@1. */
export function worstFirst(a: LeftOutReport, b: LeftOutReport): number {
  const x = a.leftOut.answers.overall;
  const y = b.leftOut.answers.overall;
  return x.hit5 - y.hit5 || x.hit1 - y.hit1 || a.set.localeCompare(b.set);
}

export async function leftOutSummary(
  runs: readonly CorpusRuns[],
  quick: boolean,
  log: (line: string) => void = () => {},
): Promise<LeftOutSummary> {
  const axes = quick ? QUICK_AXES : FULL_AXES;
  const grid = gridOf(axes);
  const started = performance.now();
  const fits = fitLeftOut(runs, axes);
  log(
    `left-out fits: ${grid.length} grid points × ${runs.length} corpora in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const corpora: LeftOutReport[] = [];
  for (const r of runs) {
    const { fit, choice } = fits.get(r.name)!;
    corpora.push({
      set: r.name,
      fit: {
        point: describeFit(fit),
        thresholds: fit.thresholds,
        chosenOn: choice.chosenOn,
        tuningObjective: choice.score,
      },
      leftOut: await heldOutWith(r, fit, 'svc-docs, left-out fit'),
      shipped: await heldOutWith(r, SHIPPED_FIT, 'svc-docs (shipped)'),
    });
  }
  return { gridPoints: grid.length, axes, corpora: corpora.sort(worstFirst) };
}
