import type { SearchResult, WindowSection } from '../search/types.js';

/**
 * What of the engine's results fits one response. Pure: sizes come from a `measure` object the
 * renderer supplies (each piece measured once, never the whole response again).
 *
 * - Results whose confidence is below `minConfidence` are left out (the first one never is):
 *   the labels measure them as rarely relevant, and they cost as much as a good one.
 * - Every kept result shows its best section. What the budget has left grows the windows one
 *   section at a time, always where the evidence is: the next section (before or after a window)
 *   that matches most of the query, weighted by its result's rank, looking a few sections ahead
 *   so a non-matching section between the window and a matching one is crossed. Sections that
 *   match nothing come last. A window stays contiguous and never passes 15 sections each side.
 * - When every full window fits, everything is shown: 31 sections centred on the best match.
 */

export interface FitMeasure {
  /** Characters a result costs before any section (its header lines and separators). */
  result(result: SearchResult, rank: number): number;
  /** Characters a section costs, as shown (a long section is shown clipped). */
  section(section: WindowSection): number;
  /** Characters of the response's own header and notes. */
  overhead: number;
}

export interface FitOptions {
  budgetChars: number;
  /** Results below this confidence (other than the first) are left out. */
  minConfidence: number;
  /** …and results below this share of the first one's confidence: a decisive first result leaves its room to its own window. */
  relativeConfidence: number;
  /** How far past a window's edge a matching section still pulls the window towards it, and how the pull fades per section. */
  lookAhead: number;
  distanceDecay: number;
}

export const DEFAULT_FIT: Omit<FitOptions, 'budgetChars'> = {
  minConfidence: 0.05,
  relativeConfidence: 0,
  lookAhead: 3,
  distanceDecay: 0.7,
};

export interface FittedResult {
  result: SearchResult;
  /** Shown sections: `result.sections.slice(from, to + 1)`. */
  from: number;
  to: number;
}

export interface Fitted {
  fitted: FittedResult[];
  /** Results left out: below the confidence floor, or no room for their best section. */
  omittedResults: number;
}

/** Non-matching context still beats nothing, in rank order, once all matching sections are in. */
const CONTEXT_PRIORITY = 0.02;

function bestIndex(sections: readonly WindowSection[]): number {
  return Math.max(
    0,
    sections.findIndex((s) => s.isBest),
  );
}

/** How strongly the window of `f` is pulled one section further in direction `step` (±1). */
function pull(f: FittedResult, step: -1 | 1, options: FitOptions): number {
  const { sections } = f.result;
  let strongest = 0;
  for (let d = 1; d <= options.lookAhead; d++) {
    const s = sections[(step < 0 ? f.from : f.to) + step * d];
    if (s === undefined) break;
    strongest = Math.max(strongest, s.match * options.distanceDecay ** (d - 1));
  }
  return strongest + CONTEXT_PRIORITY;
}

export function fitToBudget(results: readonly SearchResult[], options: FitOptions, measure: FitMeasure): Fitted {
  const full = results.map((result) => ({ result, from: 0, to: result.sections.length - 1 }));
  const cost = (f: FittedResult, rank: number) => {
    let chars = measure.result(f.result, rank);
    for (let i = f.from; i <= f.to; i++) chars += measure.section(f.result.sections[i]!);
    return chars;
  };
  const floor = Math.max(options.minConfidence, options.relativeConfidence * (results[0]?.confidence ?? 0));
  const candidates = full.filter((f, i) => i === 0 || f.result.confidence >= floor);
  const wholeCost = measure.overhead + candidates.reduce((sum, f, i) => sum + cost(f, i), 0);
  if (wholeCost <= options.budgetChars)
    return { fitted: candidates, omittedResults: results.length - candidates.length };

  // Best sections first, in rank order, as many as fit (the first always).
  let used = measure.overhead;
  const fitted: FittedResult[] = [];
  for (const f of candidates) {
    const best = bestIndex(f.result.sections);
    const narrow = { result: f.result, from: best, to: best };
    const chars = cost(narrow, fitted.length);
    if (fitted.length > 0 && used + chars > options.budgetChars) break;
    fitted.push(narrow);
    used += chars;
  }

  // Then grow windows where the evidence is, while sections fit.
  const closed = new Set<string>();
  for (;;) {
    let choice: { i: number; step: -1 | 1; priority: number } | undefined;
    fitted.forEach((f, i) => {
      const weight = 1 / (1 + i);
      for (const step of [1, -1] as const) {
        const next = step < 0 ? f.from - 1 : f.to + 1;
        if (next < 0 || next >= f.result.sections.length || closed.has(`${i}${step}`)) continue;
        const priority = weight * pull(f, step, options);
        if (!choice || priority > choice.priority) choice = { i, step, priority };
      }
    });
    if (!choice) break;
    const f = fitted[choice.i]!;
    const next = choice.step < 0 ? f.from - 1 : f.to + 1;
    const chars = measure.section(f.result.sections[next]!);
    if (used + chars > options.budgetChars) {
      closed.add(`${choice.i}${choice.step}`);
      continue;
    }
    used += chars;
    fitted[choice.i] = choice.step < 0 ? { ...f, from: next } : { ...f, to: next };
  }
  return { fitted, omittedResults: results.length - fitted.length };
}
