import { z } from 'zod';
import { RELEVANCE_LABELS, type SearchResult, type WindowSection } from '../search/types.js';

/**
 * What SearchDocs returns: a text rendering for the model to read and the same results as
 * structured content, both cut to one size budget. Pure functions of the engine's results.
 */

/** The window never shows more than this many sections on each side of the best one (31 in all). */
export const MAX_RADIUS = 15;

const sectionSchema = z.object({
  position: z.number().int().min(0).describe('0-based position of the section in its document'),
  headings: z.array(z.string()).describe('Heading path from the document title down to this section'),
  text: z.string().describe('Markdown of the section, its own heading line included'),
  isBest: z.boolean().describe('True for the section that matched best'),
});

export const searchDocsOutputSchema = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      rank: z.number().int().min(1),
      title: z.string(),
      source: z.string().describe('Knowledge-base name'),
      path: z.string().describe('Document path within its knowledge base'),
      relevance: z.object({ label: z.enum(RELEVANCE_LABELS), stars: z.number().int().min(0).max(3) }),
      score: z.number(),
      sections: z.array(sectionSchema).min(1).max(2 * MAX_RADIUS + 1).describe('Consecutive sections centred on the best match'),
      omittedBefore: z.number().int().min(0).describe('Sections of the window left out before the shown ones to fit the size budget'),
      omittedAfter: z.number().int().min(0).describe('Sections of the window left out after the shown ones to fit the size budget'),
    }),
  ),
  omittedResults: z.number().int().min(0).describe('Lower-ranked results left out to fit the size budget'),
});
export type SearchDocsOutput = z.infer<typeof searchDocsOutputSchema>;

/** A result whose window may have been narrowed to fit the budget. */
export interface FittedResult {
  result: SearchResult;
  omittedBefore: number;
  omittedAfter: number;
}

function bestIndex(sections: readonly WindowSection[]): number {
  return Math.max(0, sections.findIndex((s) => s.isBest));
}

/** Keeps the sections at most `radius` away from the best one (on each side); the best one always stays. */
export function trimWindow(fitted: FittedResult, radius: number): FittedResult {
  const { sections } = fitted.result;
  const best = bestIndex(sections);
  const from = Math.max(0, best - radius);
  const to = Math.min(sections.length - 1, best + radius);
  return {
    result: { ...fitted.result, sections: sections.slice(from, to + 1) },
    omittedBefore: fitted.omittedBefore + from,
    omittedAfter: fitted.omittedAfter + (sections.length - 1 - to),
  };
}

/** How far the window reaches from the best section on its longer side. */
function reach(fitted: FittedResult): number {
  const { sections } = fitted.result;
  const best = bestIndex(sections);
  return Math.max(best, sections.length - 1 - best);
}

/**
 * Fits results into `budgetChars` as measured by `measure`. Every window is narrowed
 * symmetrically around its best section to the widest common radius that fits; if the best
 * sections alone are still too large, the lowest-ranked results are left out. What the budget
 * has left is then spent widening windows again, best-ranked result first. The best section of
 * the top result is never left out, so with a budget smaller than that section alone the answer
 * is that section, over budget.
 */
export function fitToBudget(
  results: readonly SearchResult[],
  budgetChars: number,
  measure: (fitted: FittedResult[]) => number,
): { fitted: FittedResult[]; omittedResults: number } {
  const full = results.map((result) => trimWindow({ result, omittedBefore: 0, omittedAfter: 0 }, MAX_RADIUS));
  if (full.length === 0 || measure(full) <= budgetChars) return { fitted: full, omittedResults: 0 };

  const narrowed = (radius: number, count: number) => full.slice(0, count).map((f) => trimWindow(f, radius));
  let radius = Math.max(0, Math.max(...full.map(reach)) - 1);
  while (radius > 0 && measure(narrowed(radius, full.length)) > budgetChars) radius--;
  let kept = full.length;
  while (kept > 1 && measure(narrowed(0, kept)) > budgetChars) kept--;

  let fitted = narrowed(radius, kept);
  for (let i = 0; i < kept; i++) {
    const original = full[i]!;
    for (let r = radius + 1; r <= reach(original); r++) {
      const wider = fitted.with(i, trimWindow(original, r));
      if (measure(wider) > budgetChars) break;
      fitted = wider;
    }
  }
  return { fitted, omittedResults: full.length - kept };
}

function relevanceLine(relevance: SearchResult['relevance']): string {
  const stars = '★'.repeat(relevance.stars);
  return `Relevance: ${stars ? `${stars} ` : ''}${relevance.label}`;
}

function sectionBlock(section: WindowSection): string {
  // 1-based numbers for readers; the heading path keeps context when parent sections are trimmed.
  const where = `section ${section.position + 1}${section.headings.length > 0 ? ` | ${section.headings.join(' > ')}` : ''}`;
  const separator = section.isBest ? `>>>>> BEST MATCH | ${where} <<<<<` : `----- ${where} -----`;
  return `${separator}\n${section.text.trim()}`;
}

function resultBlock(fitted: FittedResult, rank: number, total: number): string {
  const { result, omittedBefore, omittedAfter } = fitted;
  const first = result.sections[0];
  const last = result.sections.at(-1);
  const span =
    !first || !last
      ? 'no sections'
      : first === last
        ? `section ${first.position + 1} of the document, the best match, marked ">>>>> BEST MATCH"`
        : `sections ${first.position + 1}-${last.position + 1} of the document (${result.sections.length} consecutive), best match marked ">>>>> BEST MATCH"`;
  const lines = [`===== Result ${rank} of ${total} =====`];
  if (result.title) lines.push(`Title: ${result.title}`);
  lines.push(`Source: ${result.source}`, `Path: ${result.path}`, relevanceLine(result.relevance), `Content: ${span}`);
  if (omittedBefore + omittedAfter > 0) {
    lines.push(`(To fit the response size, ${omittedBefore} section(s) before and ${omittedAfter} after these were left out.)`);
  }
  return `${lines.join('\n')}\n\n${result.sections.map(sectionBlock).join('\n\n')}`;
}

export function noResultsText(term: string): string {
  return (
    `No documentation matched "${term}". This is not an error: try other or more specific technical terms ` +
    '(API names, field names, headers, error messages) or describe the task in different words.'
  );
}

function renderParts(term: string, fitted: readonly FittedResult[], omittedResults: number): { text: string; structured: SearchDocsOutput } {
  const structured: SearchDocsOutput = {
    query: term,
    results: fitted.map((f, i) => ({
      rank: i + 1,
      title: f.result.title,
      source: f.result.source,
      path: f.result.path,
      relevance: { label: f.result.relevance.label, stars: f.result.relevance.stars },
      score: f.result.score,
      sections: f.result.sections.map((s) => ({ position: s.position, headings: [...s.headings], text: s.text, isBest: s.isBest })),
      omittedBefore: f.omittedBefore,
      omittedAfter: f.omittedAfter,
    })),
    omittedResults,
  };
  if (fitted.length === 0) return { text: noResultsText(term), structured };
  const total = fitted.length + omittedResults;
  const header =
    `Found ${total} result${total === 1 ? '' : 's'} for "${term}", best first.` +
    (omittedResults > 0 ? ` Showing the first ${fitted.length}; ${omittedResults} more did not fit the response size (search with more specific terms).` : '');
  const body = fitted.map((f, i) => resultBlock(f, i + 1, total)).join('\n\n');
  return { text: `${header}\n\n${body}`, structured };
}

/** Size of a rendering: what the client receives, text and structured copy together. */
export function renderedSize(rendered: { text: string; structured: SearchDocsOutput }): number {
  return rendered.text.length + JSON.stringify(rendered.structured).length;
}

/** Renders search results within `budgetChars` (see fitToBudget). */
export function renderSearch(term: string, results: readonly SearchResult[], budgetChars: number): { text: string; structured: SearchDocsOutput } {
  const { fitted, omittedResults } = fitToBudget(results, budgetChars, (f) => renderedSize(renderParts(term, f, results.length - f.length)));
  return renderParts(term, fitted, omittedResults);
}
