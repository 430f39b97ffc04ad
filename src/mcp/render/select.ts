import { DEFAULT_PASSAGES, type PassageOptions } from '../../search/passage-options.js';
import type { SearchResult, WindowSection } from '../../search/types.js';
import { novelty, sentenceKeys } from './sentences.js';

/**
 * Which sections of which results one response shows. Pure: sizes come from a `measure` the
 * renderer supplies (each piece measured once, never the whole response again).
 *
 * - When every result's whole ±15-section window fits, everything is shown (the window the SearchDocs contract describes).
 * - Results whose confidence is below `minConfidence` are left out (the first one never is), and
 *   so is a result whose best match says only what a better result's already said: it gives its
 *   room to one that adds something.
 * - Every kept result shows its best match, in rank order, as many as fit (the first always).
 * - What the budget has left grows the windows one section at a time, always where the evidence
 *   is: the next section (before or after a window) that matches most of the query, weighted by
 *   its result's rank, looking a few sections ahead so a non-matching section between the window
 *   and a matching one is crossed. Sections that match nothing come last. A window never passes
 *   15 sections each side. A page's other strongly matching section (`SearchResult.excerpts`)
 *   beyond the window's reach competes as a separate excerpt, and so does the page's opening
 *   when the query names the page's topic.
 * - A navigation or empty section (a link list, a heading with nothing under it) inside a partly
 *   shown window is not shown and costs nothing: the room goes to sections that say something.
 * - Each shown result names the window sections it leaves out in an outline of bounded length
 *   (outline.ts), charged with the result's header.
 * Tuned on the tuning halves of every labelled set, judged at the answer (bench/results/tuning.md).
 */

export interface SelectMeasure {
  /** Characters of the response's own header and notes. */
  overhead: number;
  /** Characters a result costs before any section: its header lines, separators and outline at most. */
  result(result: SearchResult, rank: number): number;
  /** Characters a section of the result at 0-based `rank` costs as shown (clipped when very long), its marker at its widest. */
  section(section: WindowSection, rank: number): number;
}

/** The budget with every fitted number (src/search/passage-options.ts). */
export type SelectOptions = PassageOptions & { budgetChars: number };

/** The shipped numbers (frozen: tuning passes its own copy). */
export const DEFAULT_SELECT: PassageOptions = DEFAULT_PASSAGES;

/** How much of `section`, of the result at 0-based `rank`, a response shows at most. */
export function clipLimit(
  section: WindowSection,
  rank: number,
  options: Pick<SelectOptions, 'bestSectionChars' | 'sectionChars'>,
): number {
  return section.isBest && rank === 0 ? options.bestSectionChars : options.sectionChars;
}

export interface Chosen {
  result: SearchResult;
  /** Shown sections, in page order: window sections and excerpts alike. */
  sections: WindowSection[];
  /** The window's sections not shown, in page order. */
  leftOut: WindowSection[];
}

export interface Selection {
  chosen: Chosen[];
  /** Results left out: below the confidence floor, repeating a better one, or no room for their best match. */
  omittedResults: number;
}

/** A result being fitted: its window's shown range `sections[from..to]` and its separate excerpts. */
interface Fitting {
  result: SearchResult;
  from: number;
  to: number;
  excerpts: WindowSection[];
}

/** Non-matching context still beats nothing, in rank order, once all matching sections are in. */
const CONTEXT_PRIORITY = 0.02;
/** A page's opening, for a query naming its topic, weighs as a section matching this much of the query. */
const OPENING_MATCH = 0.5;

/** Sections a partly shown window shows: the ones that say something, and its best match. */
function says(section: WindowSection): boolean {
  return section.isBest || section.role === 'content';
}

function bestIndex(sections: readonly WindowSection[]): number {
  return Math.max(
    0,
    sections.findIndex((s) => s.isBest),
  );
}

/** The page position of the window's edges. */
function span(f: Fitting): { first: number; last: number } {
  return { first: f.result.sections[f.from]!.position, last: f.result.sections[f.to]!.position };
}

/**
 * The strongest excerpt candidate of `f` not shown yet: the page's opening when the query names
 * the page's topic (wherever it is), else a strongly matching section the window cannot reach.
 */
function nextExcerpt(f: Fitting, options: SelectOptions): WindowSection | undefined {
  if (f.excerpts.filter((e) => !e.opening).length >= options.maxExcerpts) return undefined;
  const { first, last } = span(f);
  const shown = (s: WindowSection) =>
    f.excerpts.some((e) => e.position === s.position) || (s.position >= first && s.position <= last);
  return f.result.excerpts?.find(
    (s) =>
      says(s) &&
      !shown(s) &&
      (s.opening ||
        (s.match >= options.excerptMinMatch &&
          (s.position < first - options.lookAhead || s.position > last + options.lookAhead))),
  );
}

/** How strongly the window of `f` is pulled one section further in direction `step` (±1). */
function pull(f: Fitting, step: -1 | 1, options: SelectOptions): number {
  const { sections } = f.result;
  let strongest = 0;
  for (let d = 1; d <= options.lookAhead; d++) {
    const s = sections[(step < 0 ? f.from : f.to) + step * d];
    if (s === undefined) break;
    if (says(s)) strongest = Math.max(strongest, s.match * options.distanceDecay ** (d - 1));
  }
  return strongest + CONTEXT_PRIORITY;
}

/** What a fitting shows: its window's sections that say something (all of them when `whole`), and its excerpts, in page order. */
function chosenOf(f: Fitting, whole: boolean): Chosen {
  const window = f.result.sections.slice(f.from, f.to + 1);
  const inWindow = whole ? window : window.filter(says);
  const excerpts = f.excerpts.filter((e) => !window.some((s) => s.position === e.position));
  const sections = [...inWindow, ...excerpts].sort((a, b) => a.position - b.position);
  const shown = new Set(sections.map((s) => s.position));
  return { result: f.result, sections, leftOut: f.result.sections.filter((s) => !shown.has(s.position)) };
}

export function selectSections(
  results: readonly SearchResult[],
  options: SelectOptions,
  measure: SelectMeasure,
): Selection {
  const kept = results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
  const whole = kept.reduce(
    (sum, r, i) => sum + measure.result(r, i) + r.sections.reduce((s, x) => s + measure.section(x, i), 0),
    measure.overhead,
  );
  if (whole <= options.budgetChars) {
    const chosen = kept.map((result) =>
      chosenOf({ result, from: 0, to: result.sections.length - 1, excerpts: [] }, true),
    );
    return { chosen, omittedResults: results.length - kept.length };
  }
  // Best matches first, in rank order, as many as fit (the first always); one that repeats a better one's is skipped.
  let used = measure.overhead;
  const fitted: Fitting[] = [];
  const said = new Set<string>();
  for (const result of kept) {
    const best = bestIndex(result.sections);
    const keys = sentenceKeys(result.sections[best]!.text);
    const chars = measure.result(result, fitted.length) + measure.section(result.sections[best]!, fitted.length);
    if (fitted.length > 0 && (used + chars > options.budgetChars || novelty(keys, said) === 0)) continue;
    fitted.push({ result, from: best, to: best, excerpts: [] });
    for (const k of keys) said.add(k);
    used += chars;
  }
  grow(fitted, options, measure, used);
  return { chosen: fitted.map((f) => chosenOf(f, false)), omittedResults: results.length - fitted.length };
}

type Step = -1 | 1 | 0;

/** One section at a time, the strongest pull first: a window edge (±1) or a separate excerpt (0). */
function grow(fitted: Fitting[], options: SelectOptions, measure: SelectMeasure, used: number): void {
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
      const strength = excerpt.opening ? OPENING_MATCH : excerpt.match;
      const priority = weight * (options.excerptWeight * strength + CONTEXT_PRIORITY);
      if (!choice || priority > choice.priority) choice = { i, step: 0, priority, excerpt };
    });
    if (!choice) break;
    const f = fitted[choice.i]!;
    const section = choice.excerpt ?? f.result.sections[choice.step < 0 ? f.from - 1 : f.to + 1]!;
    const chars = says(section) ? measure.section(section, choice.i) : 0;
    if (used + chars > options.budgetChars) {
      closed.add(`${choice.i}:${choice.step}`);
      continue;
    }
    used += chars;
    if (choice.excerpt !== undefined)
      fitted[choice.i] = { ...f, excerpts: [...f.excerpts, section].sort((a, b) => a.position - b.position) };
    else fitted[choice.i] = choice.step < 0 ? { ...f, from: f.from - 1 } : { ...f, to: f.to + 1 };
  }
}
