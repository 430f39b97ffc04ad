import { covered } from '../../search/coverage.js';
import { DEFAULT_PASSAGES } from '../../search/passage-options.js';
import type { RelevanceLabel, SearchResult, WindowSection } from '../../search/types.js';
import { pageUri } from '../tools/page-uri.js';
import { cutMarkdown } from './cut-markdown.js';
import { NOT_COVERED_PAGES, notCoveredText, quoteOf } from './not-covered.js';
import { oneLine } from './one-line.js';
import { markerLine, range } from './marker-line.js';
import { outlineLine } from './outline.js';
import {
  type Chosen,
  clipLimit,
  type SelectMeasure,
  type SelectOptions,
  type Selection,
  wholeWindows,
} from './select.js';
import { elideRepeats, repeatsElider } from './elide.js';
import { passageChooser } from './passages.js';

/**
 * What SearchDocs returns: one text rendering, the same for every client's model (Title, Source,
 * Relevance with stars, Content: the SearchDocs contract), and the same chosen sections as data
 * for the search page for people. Pure functions of the engine's results.
 */

export type RenderOptions = Pick<SelectOptions, 'budgetChars'> & Partial<Omit<SelectOptions, 'budgetChars'>>;

/** What SearchDocs chose, as data: what the search page for people and the benchmarks read. */
export interface SearchDocsOutput {
  query: string;
  /** False when the documentation does not seem to cover the query: results are only the closest pages. */
  covered: boolean;
  results: {
    rank: number;
    title: string;
    /** Knowledge-base name. */
    source: string;
    path: string;
    relevance: { label: RelevanceLabel; stars: number };
    /** Sections in the whole page. */
    pageSections: number;
    /** Sections shown (0-based positions), in page order, not always adjacent; text clipped as the text shows it. */
    sections: { position: number; text: string; isBest: boolean }[];
    /** Sections of the window around the best match that are not shown. */
    notShown: { position: number; heading: string }[];
  }[];
  /** Weaker results left out. */
  omittedResults: number;
}

/** Cuts a long section at a line break, closing a code fence it cut through (cut-markdown.ts). */
export function clipSection(text: string, maxChars: number): string {
  const { text: head, omitted } = cutMarkdown(text.trim(), maxChars);
  return omitted === 0 ? head : `${head}\n[… ${omitted} more characters of this section: read the whole page]`;
}

function relevanceLine(relevance: SearchResult['relevance']): string {
  const stars = '★'.repeat(relevance.stars);
  return `Relevance: ${stars ? `${stars} ` : ''}${relevance.label}`;
}

/** "3, 5-7 and 12": 1-based section numbers of `positions` (ascending), runs joined. */
function listOf(positions: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < positions.length; ) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === positions[j]! + 1) j++;
    runs.push(range(positions[i]! + 1, positions[j]! + 1));
    i = j + 1;
  }
  return runs.length === 1 ? runs[0]! : `${runs.slice(0, -1).join(', ')} and ${runs.at(-1)}`;
}

/** A section's block: its marker line, then its text. */
function sectionBlock(section: WindowSection, gap: { from: number; to: number } | undefined, maxChars: number): string {
  return `${markerLine(section, section.isBest, gap)}\n${clipSection(section.text, maxChars)}`;
}

function resultHeader(result: SearchResult, rank: number, shown: readonly number[] | undefined): string {
  const uri = pageUri(result.source, result.path);
  const lines = [`===== Result ${rank} =====`];
  if (result.title) lines.push(`Title: ${oneLine(result.title)}`);
  lines.push(`Source: ${oneLine(result.source)}`, `Path: ${oneLine(result.path)}`);
  if (result.url) lines.push(`URL: ${oneLine(result.url)}`);
  lines.push(relevanceLine(result.relevance));
  if (shown) {
    const total = result.documentSections;
    const whole = shown.length === total;
    lines.push(
      `Content: section${shown.length === 1 ? '' : 's'} ${listOf(shown)} of the page's ${total}` +
        (whole ? ' (the whole page)' : `; the whole page: ${uri}`),
    );
  }
  return lines.join('\n');
}

function headerLine(term: string, shown: number, omitted: number): string {
  return (
    `${shown} result${shown === 1 ? '' : 's'} for ${JSON.stringify(oneLine(term))}, best first.` +
    (omitted > 0
      ? ` ${omitted} weaker result${omitted === 1 ? ' was' : 's were'} left out: search again with more specific terms for more.`
      : '')
  );
}

export function noResultsText(term: string): string {
  return (
    `No documentation matched ${JSON.stringify(oneLine(term))}. This is not an error: search again with the documentation's own terms ` +
    '(API, option, field or header names, error messages), or describe the task in other words.'
  );
}

/** Characters `clipSection(text, maxChars)` returns, without building it when nothing is cut (most sections). */
function clippedChars(text: string, maxChars: number): number {
  const chars = text.trim().length;
  return chars <= maxChars ? chars : clipSection(text, maxChars).length;
}

/**
 * Sizes for the selection, each piece measured at its widest (the text is never longer), as
 * numbers: a section's marker and a result's header and outline are built once per response and
 * counted, never the section's text (the choosers ask again for every budget they try).
 */
function measureFor(term: string, options: SelectOptions): SelectMeasure {
  const wide = { from: 9997, to: 9998 };
  const markers = new Map<WindowSection, number>();
  const headers = new Map<SearchResult, number[]>();
  const marker = (section: WindowSection): number => {
    let chars = markers.get(section);
    if (chars === undefined) {
      // Its block with no text: the marker line and a line break, and the blank line after it.
      chars = markerLine(section, true, wide).length + 1 + 2;
      markers.set(section, chars);
    }
    return chars;
  };
  return {
    term,
    overhead: headerLine(term, 9, 9).length + 2,
    // A result's header and its outline at most: the outline shrinks as its sections are shown.
    result: (result, rank) => {
      let byRank = headers.get(result);
      if (byRank === undefined) headers.set(result, (byRank = []));
      byRank[rank] ??=
        resultHeader(result, rank + 1, [9997, 9999]).length +
        6 +
        outlineLine(
          result.sections.filter((s) => !s.isBest),
          options.outlineChars,
        ).length;
      return byRank[rank];
    },
    section: (section, rank) => marker(section) + clippedChars(section.text, clipLimit(section, rank, options)),
    marker,
  };
}

function resultText(c: Chosen, rank: number, options: SelectOptions): string {
  const positions = c.sections.map((s) => s.position);
  const blocks = c.sections.map((s, i) => {
    const previous = i === 0 ? -1 : positions[i - 1]!;
    const gap = s.position - previous > 1 ? { from: previous + 1, to: s.position - 1 } : undefined;
    return sectionBlock(s, gap, clipLimit(s, rank - 1, options));
  });
  const outline = outlineLine(c.leftOut, options.outlineChars);
  return `${resultHeader(c.result, rank, positions)}\n\n${blocks.join('\n\n')}${outline ? `\n\n${outline}` : ''}`;
}

function structuredResult(c: Chosen, rank: number, options: SelectOptions): SearchDocsOutput['results'][number] {
  const r = c.result;
  return {
    rank,
    title: r.title,
    source: r.source,
    path: r.path,
    relevance: { label: r.relevance.label, stars: r.relevance.stars },
    pageSections: r.documentSections,
    sections: c.sections.map((s) => ({
      position: s.position,
      text: clipSection(s.text, clipLimit(s, rank - 1, options)),
      isBest: s.isBest,
    })),
    notShown: c.leftOut.map((s) => ({ position: s.position, heading: oneLine(s.headings.at(-1) ?? '') })),
  };
}

/**
 * The answer as data, its results built only when read: the search page reads them, while an MCP
 * answer is its text alone, so a SearchDocs call does not clip every shown section a second time.
 * The first read puts the results in place of the getter (what test/mcp/tools shows).
 */
function structuredOutput(
  query: string,
  covered: boolean,
  chosen: readonly Chosen[],
  omittedResults: number,
  options: SelectOptions,
): SearchDocsOutput {
  return Object.defineProperty({ query, covered, omittedResults } as SearchDocsOutput, 'results', {
    configurable: true,
    enumerable: true,
    get(this: SearchDocsOutput) {
      const results = chosen.map((c, i) => structuredResult(c, i + 1, options));
      Object.defineProperty(this, 'results', { value: results, enumerable: true, writable: true });
      return results;
    },
  });
}

/** The pages a response shows ("<source>/<path>"), in rank order: what the search record keeps. */
function pagesOf(chosen: readonly Chosen[]): string[] {
  return chosen.map((c) => `${c.result.source}/${c.result.path}`);
}

/** The closest pages of a query the docs do not cover: each its best section, quoted short. */
function notCoveredChosen(results: readonly SearchResult[]): Chosen[] {
  return results.slice(0, NOT_COVERED_PAGES).map((result) => {
    const best = result.sections.find((s) => s.isBest) ?? result.sections[0]!;
    return { result, sections: [{ ...best, text: quoteOf(best.text) }], leftOut: [] };
  });
}

function responseText(term: string, chosen: readonly Chosen[], omitted: number, options: SelectOptions): string {
  const blocks = chosen.map((c, i) => resultText(c, i + 1, options));
  return `${headerLine(term, chosen.length, omitted)}\n\n${blocks.join('\n\n')}`;
}

/**
 * The pieces chosen within the budget, with repeated facts elided (elide.ts), rendered once.
 * Whole windows when they all fit (select.ts): their cost does not depend on the budget, so they
 * are measured once, and the room their elision frees changes nothing. Else passages
 * (passages.ts), and the room the elision frees goes back to the chooser once: it chooses again
 * with the budget raised by it (whole windows, when they fit that), and that choice stands when
 * its cost less what its own elision frees still fits the budget.
 */
function fitted(term: string, results: readonly SearchResult[], options: SelectOptions): Selection {
  const measure = measureFor(term, options);
  const whole = wholeWindows(results, options, measure);
  const windows = (budgetChars: number) => (whole.used <= budgetChars ? whole : undefined);
  if (windows(options.budgetChars)) return { ...whole, chosen: elideRepeats(whole.chosen).results };
  const passages = passageChooser(results, options, measure);
  const elide = repeatsElider();
  const first = passages(options.budgetChars);
  const once = elide(first.chosen);
  if (once.freed <= 0) return { ...first, chosen: once.results };
  const budget = options.budgetChars + once.freed;
  const second = windows(budget) ?? passages(budget);
  const twice = elide(second.chosen);
  return second.used - twice.freed <= options.budgetChars
    ? { ...second, chosen: twice.results }
    : { ...first, chosen: once.results };
}

/** Renders search results within the budget (select.ts), or says the docs do not cover the query. */
export function renderSearch(
  term: string,
  results: readonly SearchResult[],
  options: RenderOptions,
): { text: string; structured: SearchDocsOutput; pages: string[] } {
  // The shipped numbers (frozen: tuning passes its own copy in `options`).
  const given: SelectOptions = { ...DEFAULT_PASSAGES, ...options };
  // Under a small budget no section takes more than 0.4 of it (but never under 1,500 characters).
  const cap = Math.max(1_500, Math.floor(0.4 * options.budgetChars));
  const select: SelectOptions = {
    ...given,
    bestSectionChars: Math.min(given.bestSectionChars, cap),
    sectionChars: Math.min(given.sectionChars, cap),
  };
  if (results.length === 0)
    return { text: noResultsText(term), structured: structuredOutput(term, false, [], 0, select), pages: [] };
  if (!covered(results, select, term)) {
    const chosen = notCoveredChosen(results);
    const omitted = results.length - chosen.length;
    const structured = structuredOutput(term, false, chosen, omitted, select);
    return { text: notCoveredText(term, results), structured, pages: pagesOf(chosen) };
  }
  const { chosen, omittedResults } = fitted(term, results, select);
  const text = responseText(term, chosen, omittedResults, select);
  return { text, structured: structuredOutput(term, true, chosen, omittedResults, select), pages: pagesOf(chosen) };
}
