import type { PassageOptions } from '../../search/passage-options.js';
import type { SearchResult, WindowSection } from '../../search/types.js';

/**
 * The window path of a response, and the types the choosers share. When every result's whole
 * ±15-section window fits the budget, everything is shown (the window the SearchDocs contract
 * describes), except results below `minConfidence` (never the first). Otherwise passages.ts
 * chooses passages. Pure: sizes come from a `measure` the renderer supplies, each piece measured
 * once, never the whole response.
 */

export interface SelectMeasure {
  /** The search term (passages are scored for it). */
  term: string;
  /** Characters of the response's own header and notes. */
  overhead: number;
  /** Characters a result costs before any section: its header lines, separators and outline at most. */
  result(result: SearchResult, rank: number): number;
  /** Characters a section of the result at 0-based `rank` costs as shown (clipped when very long), its marker at its widest. */
  section(section: WindowSection, rank: number): number;
  /** Characters of a section's marker line alone, at its widest (passages.ts adds what it shows). */
  marker(section: WindowSection, rank: number): number;
}

/** The budget with every fitted number (src/search/passage-options.ts). */
export type SelectOptions = PassageOptions & { budgetChars: number };

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
  /** Characters the choice costs at most, as measured (the text, before repeats are elided, is never longer). */
  used: number;
}

/** Every kept result's whole window, and what it costs (whatever the budget: the caller compares). */
export function wholeWindows(
  results: readonly SearchResult[],
  options: Pick<SelectOptions, 'minConfidence'>,
  measure: SelectMeasure,
): Selection {
  const kept = results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
  const used = kept.reduce(
    (sum, r, i) => sum + measure.result(r, i) + r.sections.reduce((s, x) => s + measure.section(x, i), 0),
    measure.overhead,
  );
  const chosen = kept.map((result) => ({ result, sections: result.sections, leftOut: [] }));
  return { chosen, omittedResults: results.length - kept.length, used };
}
