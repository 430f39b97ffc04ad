import type { SearchResult, WindowSection } from '../../search/types.js';

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
 * - A page's other strongly matching section (`SearchResult.excerpts`) that lies beyond what the
 *   window can reach (more than `lookAhead` sections from its edges) competes for the budget as a
 *   separate excerpt, weighted like a section next to the window: the answer a page states in its
 *   introduction is shown even when ranking centred the window on an example far below it.
 * - When every full window fits, everything is shown: 31 sections centred on the best match.
 */

export interface FitMeasure {
  /** Characters a result costs before any section (its header lines and separators). */
  result(result: SearchResult, rank: number): number;
  /** Characters a section costs, as shown (a long section is shown clipped). */
  section(section: WindowSection): number;
  /** Characters a section costs shown as a separate excerpt (its marker says so). */
  excerpt(section: WindowSection): number;
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
  /** Separate excerpts per result (0: none), their weight against a section next to the window, and the least match one needs. */
  maxExcerpts: number;
  excerptWeight: number;
  excerptMinMatch: number;
}

export const DEFAULT_FIT: Omit<FitOptions, 'budgetChars'> = {
  minConfidence: 0.05,
  relativeConfidence: 0,
  lookAhead: 3,
  distanceDecay: 0.7,
  maxExcerpts: 1,
  excerptWeight: 1,
  excerptMinMatch: 0.3,
};

export interface FittedResult {
  result: SearchResult;
  /** Shown sections: `result.sections.slice(from, to + 1)`. */
  from: number;
  to: number;
  /** Sections shown apart from the window, each a separate excerpt, in page order (none inside the window). */
  excerpts: WindowSection[];
}

interface Fitted {
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

/** The page position of the window's edges. */
function span(f: FittedResult): { first: number; last: number } {
  return { first: f.result.sections[f.from]!.position, last: f.result.sections[f.to]!.position };
}

/** The strongest excerpt candidate of `f` the window cannot reach and that is not shown yet. */
function nextExcerpt(f: FittedResult, options: FitOptions): WindowSection | undefined {
  if (f.excerpts.length >= options.maxExcerpts) return undefined;
  const { first, last } = span(f);
  return f.result.excerpts?.find(
    (s) =>
      s.match >= options.excerptMinMatch &&
      (s.position < first - options.lookAhead || s.position > last + options.lookAhead) &&
      !f.excerpts.some((e) => e.position === s.position),
  );
}

/**
 * Excerpts the window has since grown over are shown by the window itself, and one right next to
 * the window (and within its sections) joins it: a separate excerpt is always apart from the window.
 */
function merged(f: FittedResult): FittedResult {
  const { sections } = f.result;
  const offset = sections[0]!.position;
  let { from, to } = f;
  let excerpts = f.excerpts;
  for (;;) {
    const first = offset + from;
    const last = offset + to;
    excerpts = excerpts.filter((e) => e.position < first || e.position > last);
    const next = excerpts.find(
      (e) => (e.position === first - 1 || e.position === last + 1) && sections[e.position - offset] !== undefined,
    );
    if (next === undefined) break;
    from = Math.min(from, next.position - offset);
    to = Math.max(to, next.position - offset);
  }
  return { ...f, from, to, excerpts };
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
  const full: FittedResult[] = results.map((result) => ({
    result,
    from: 0,
    to: result.sections.length - 1,
    excerpts: [],
  }));
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
    const narrow: FittedResult = { result: f.result, from: best, to: best, excerpts: [] };
    const chars = cost(narrow, fitted.length);
    if (fitted.length > 0 && used + chars > options.budgetChars) break;
    fitted.push(narrow);
    used += chars;
  }

  // Then grow windows where the evidence is, while sections fit.
  grow(fitted, options, measure, used);
  return { fitted: fitted.map(merged), omittedResults: results.length - fitted.length };
}

type Step = -1 | 1 | 0;

/** One section at a time, the strongest pull first: a window edge (±1) or a separate excerpt (0). */
function grow(fitted: FittedResult[], options: FitOptions, measure: FitMeasure, used: number): void {
  const closed = new Set<string>();
  for (;;) {
    let choice: { i: number; step: Step; priority: number; excerpt?: WindowSection } | undefined;
    fitted.forEach((f, i) => {
      const weight = 1 / (1 + i);
      for (const step of [1, -1] as const) {
        const next = step < 0 ? f.from - 1 : f.to + 1;
        if (next < 0 || next >= f.result.sections.length || closed.has(`${i}:${step}`)) continue;
        const priority = weight * pull(f, step, options);
        if (!choice || priority > choice.priority) choice = { i, step, priority };
      }
      const excerpt = closed.has(`${i}:0`) ? undefined : nextExcerpt(f, options);
      if (excerpt === undefined) return;
      const priority = weight * (options.excerptWeight * excerpt.match + CONTEXT_PRIORITY);
      if (!choice || priority > choice.priority) choice = { i, step: 0, priority, excerpt };
    });
    if (!choice) break;
    const f = fitted[choice.i]!;
    if (choice.excerpt !== undefined) {
      const chars = measure.excerpt(choice.excerpt);
      if (used + chars > options.budgetChars) {
        closed.add(`${choice.i}:0`);
        continue;
      }
      used += chars;
      const excerpts = [...f.excerpts, choice.excerpt].sort((a, b) => a.position - b.position);
      fitted[choice.i] = { ...f, excerpts };
      continue;
    }
    const next = choice.step < 0 ? f.from - 1 : f.to + 1;
    const chars = measure.section(f.result.sections[next]!);
    if (used + chars > options.budgetChars) {
      closed.add(`${choice.i}:${choice.step}`);
      continue;
    }
    used += chars;
    fitted[choice.i] = choice.step < 0 ? { ...f, from: next } : { ...f, to: next };
  }
}
