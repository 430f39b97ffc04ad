import type { SearchResult, WindowSection } from '../../search/types.js';
import { isOpening, pageChance, sectionChance } from './answer-model.js';
import { novelty, sentenceKeys } from './sentences.js';

/**
 * Which sections of which results one response shows: the whole budget spent as one, where the
 * expected answer per character is highest (answer-model.ts), across results. Pure: sizes come
 * from a `measure` the renderer supplies.
 *
 * - When every result's whole ±15-section window fits, everything is shown (the seed's window).
 * - Otherwise every result's best match is shown first, in rank order, as many as fit (the first
 *   always). Then any section of a shown result's window or excerpts, adjacent or not, is taken
 *   greedily by chance-of-answer per character, as long as it fits and its chance is at least
 *   `minChance`: low-value context is not padding worth tokens.
 * - A section whose sentences a shown section already said counts only for what it adds
 *   (sentences.ts), so a result repeating a better one gives its room to one that adds something.
 * - Each shown result names the window sections it leaves out in one outline line of bounded
 *   length (outline.ts), charged with the result's header.
 */

export interface SelectMeasure {
  /** Characters of the response's own header and notes. */
  overhead: number;
  /** Characters a result costs before any section (its header lines and separators). */
  result(result: SearchResult, rank: number): number;
  /** Characters a section costs as shown (clipped when very long), its marker at its widest. */
  section(section: WindowSection): number;
  /** Characters of a result's outline line at most (the sections it leaves out: outline.ts). */
  outline(result: SearchResult): number;
}

export interface SelectOptions {
  budgetChars: number;
  /** Results below this confidence (other than the first) are left out. */
  minConfidence: number;
  /** Sections whose chance of holding the answer (page × section) is below this are not shown. */
  minChance: number;
  /** Every result's best match first (`best`), or only the first result's (`first`). */
  seed: 'best' | 'first';
  /**
   * A best match / any other section longer than this is shown clipped at a line break: answers
   * sit early in their sections (bench/results/tuning.md), and one long section must not crowd
   * out the rest.
   */
  bestSectionChars: number;
  sectionChars: number;
  /** A result's outline line at most (outline.ts). */
  outlineChars: number;
}

export const DEFAULT_SELECT: Omit<SelectOptions, 'budgetChars'> = {
  minConfidence: 0.02,
  minChance: 0.004,
  seed: 'best',
  bestSectionChars: 3_000,
  sectionChars: 1_500,
  outlineChars: 320,
};

/** How much of `section` a response shows at most. */
export function clipLimit(
  section: WindowSection,
  options: Pick<SelectOptions, 'bestSectionChars' | 'sectionChars'>,
): number {
  return section.isBest ? options.bestSectionChars : options.sectionChars;
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
  /** Results left out: below the confidence floor, or never worth their room. */
  omittedResults: number;
}

interface Candidate {
  result: number;
  section: WindowSection;
  chance: number;
  keys: string[];
  cost: number;
}

interface State {
  results: readonly SearchResult[];
  measure: SelectMeasure;
  shown: Set<WindowSection>[];
  included: boolean[];
  said: Set<string>;
  used: number;
}

function bestOf(result: SearchResult): WindowSection {
  return result.sections.find((s) => s.isBest) ?? result.sections[0]!;
}

/** A result's window and excerpts, each section once, in page order. */
function sectionsOf(result: SearchResult): WindowSection[] {
  const inWindow = new Set(result.sections.map((s) => s.position));
  const extra = (result.excerpts ?? []).filter((s) => !inWindow.has(s.position));
  return [...result.sections, ...extra].sort((a, b) => a.position - b.position);
}

function leftOutOf(result: SearchResult, shown: ReadonlySet<WindowSection>): WindowSection[] {
  return result.sections.filter((s) => !shown.has(s));
}

/** Characters `c` adds: its block, and the result's header and outline if the result is not shown yet. */
function marginalCost(state: State, c: Candidate): number {
  if (state.included[c.result]) return c.cost;
  const result = state.results[c.result]!;
  return state.measure.result(result, c.result) + state.measure.outline(result) + c.cost;
}

function take(state: State, c: Candidate, cost: number): void {
  state.shown[c.result]!.add(c.section);
  state.included[c.result] = true;
  for (const k of c.keys) state.said.add(k);
  state.used += cost;
}

function candidatesOf(results: readonly SearchResult[], measure: SelectMeasure): Candidate[] {
  return results.flatMap((result, i) => {
    const page = pageChance(result, i);
    const best = bestOf(result).position;
    return sectionsOf(result).map((section) => ({
      result: i,
      section,
      chance: page * sectionChance(section, best, isOpening(result, section)),
      keys: sentenceKeys(section.text),
      cost: measure.section(section),
    }));
  });
}

/** The candidate worth most per character that may be taken now, or undefined when none is left. */
function nextCandidate(state: State, open: readonly Candidate[], minChance: number): Candidate | undefined {
  let choice: Candidate | undefined;
  let choiceWorth = 0;
  for (const c of open) {
    const isBest = c.section.isBest;
    if (state.included[c.result] ? state.shown[c.result]!.has(c.section) : !isBest) continue;
    const value = c.chance * novelty(c.keys, state.said);
    if (value < minChance) continue;
    const worth = value / Math.max(1, marginalCost(state, c));
    if (worth > choiceWorth) {
      choice = c;
      choiceWorth = worth;
    }
  }
  return choice;
}

export function selectSections(
  results: readonly SearchResult[],
  options: SelectOptions,
  measure: SelectMeasure,
): Selection {
  const kept = results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
  const whole = kept.reduce(
    (sum, r, i) => sum + measure.result(r, i) + r.sections.reduce((s, x) => s + measure.section(x), 0),
    measure.overhead,
  );
  if (whole <= options.budgetChars) {
    const chosen = kept.map((result) => ({ result, sections: [...result.sections], leftOut: [] }));
    return { chosen, omittedResults: results.length - kept.length };
  }
  const state: State = {
    results: kept,
    measure,
    shown: kept.map(() => new Set<WindowSection>()),
    included: kept.map(() => false),
    said: new Set(),
    used: measure.overhead,
  };
  let open = candidatesOf(kept, measure);
  // Every result's best match first, in rank order, as many as fit (the first always): a page's
  // best match is its likeliest answer, and a later page's is often likelier than a first page's
  // other sections.
  for (const c of open.filter((o) => o.section.isBest && (options.seed === 'best' || o.result === 0))) {
    const cost = marginalCost(state, c);
    if (c.result > 0 && (state.used + cost > options.budgetChars || novelty(c.keys, state.said) === 0)) continue;
    take(state, c, cost);
    open = open.filter((o) => o !== c);
  }
  for (;;) {
    const c = nextCandidate(state, open, options.minChance);
    if (c === undefined) break;
    const cost = marginalCost(state, c);
    if (state.used + cost <= options.budgetChars) take(state, c, cost);
    open = open.filter((o) => o !== c);
  }
  const chosen = kept.flatMap((result, i) =>
    state.included[i]
      ? [
          {
            result,
            sections: sectionsOf(result).filter((s) => state.shown[i]!.has(s)),
            leftOut: leftOutOf(result, state.shown[i]!),
          },
        ]
      : [],
  );
  return { chosen, omittedResults: results.length - chosen.length };
}
