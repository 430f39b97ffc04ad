import { z } from 'zod';
import { RELEVANCE_LABELS, type SearchResult, type WindowSection } from '../../search/types.js';
import { WINDOW_RADIUS } from '../../search/window.js';
import { DEFAULT_FIT, fitToBudget, type FitMeasure, type FitOptions, type FittedResult } from './fit-budget.js';
import { pageUri } from '../tools/page-uri.js';
import { cutMarkdown } from './cut-markdown.js';

/**
 * What SearchDocs returns: one text rendering, the same for every client's model (Title, Source,
 * Relevance with stars, Content: seed 2.5), and the same fitted results as structured content
 * for programmatic clients that ask for it. Pure functions of the engine's results.
 */

/**
 * The response budget, in characters of text. About 3,000 tokens: enough for the best section of
 * every result and the sections around them that match the query, where a whole 31-section
 * window of five pages ran to 30,000 characters and more, mostly unread.
 */
export const DEFAULT_RESPONSE_BUDGET_CHARS = 12_000;
type RenderOptions = FitOptions;
/** The most separate excerpts one result can show (the fitter's `maxExcerpts` is capped at this). */
const MAX_EXCERPTS_SHOWN = 2;

const sectionSchema = z.object({
  position: z.number().int().min(0).describe('0-based position of the section in its page'),
  headings: z.array(z.string()).describe('Heading path from the page title down to this section'),
  text: z.string().describe('Markdown of the section, its own heading line included (clipped when very long)'),
  isBest: z.boolean().describe('True for the section that matched best'),
  excerpt: z
    .boolean()
    .optional()
    .describe('True for a section shown apart from the window: another part of the page that matches the query'),
});

export const searchDocsOutputSchema = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      rank: z.number().int().min(1),
      title: z.string(),
      source: z.string().describe('Knowledge-base name'),
      path: z.string().describe('Page path within its knowledge base'),
      uri: z.string().describe('Resource URI of the whole page (resources/read)'),
      relevance: z.object({ label: z.enum(RELEVANCE_LABELS), stars: z.number().int().min(0).max(3) }),
      score: z.number(),
      pageSections: z.number().int().min(1).describe('Sections in the whole page'),
      sections: z
        .array(sectionSchema)
        .min(1)
        .max(2 * WINDOW_RADIUS + 1 + MAX_EXCERPTS_SHOWN)
        .describe(
          'Consecutive sections around the best match, then any separate excerpts (excerpt: true) from elsewhere in the page',
        ),
    }),
  ),
  omittedResults: z.number().int().min(0).describe('Weaker results left out'),
});
export type SearchDocsOutput = z.infer<typeof searchDocsOutputSchema>;

/** A section longer than this share of the budget is shown clipped, so one giant section cannot crowd out the rest. */
const SECTION_SHARE = 0.4;
const MIN_SECTION_CHARS = 1_500;

/** Keeps header lines on one line: a title or path with a line break cannot forge a result header. */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
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

function range(from: number, to: number): string {
  return from === to ? `${from}` : `${from}-${to}`;
}

function sectionBlock(section: WindowSection, maxChars: number): string {
  const where = `section ${section.position + 1}`;
  const marker = section.isBest
    ? `>>>>> BEST MATCH | ${where}${section.headings.length > 0 ? ` | ${oneLine(section.headings.join(' > '))}` : ''} <<<<<`
    : `----- ${where} -----`;
  return `${marker}\n${clipSection(section.text, maxChars)}`;
}

/** A section shown apart from the window: its heading path, and which sections between were left out. */
function excerptBlock(section: WindowSection, left: LeftOut, maxChars: number): string {
  const heading = section.headings.length > 0 ? ` | ${oneLine(section.headings.join(' > '))}` : '';
  const gap =
    'nextTo' in left
      ? `next to section ${left.nextTo + 1}`
      : `section${left.from === left.to ? '' : 's'} ${range(left.from + 1, left.to + 1)} not shown`;
  return `----- separate excerpt: section ${section.position + 1}${heading} (${gap}) -----\n${clipSection(section.text, maxChars)}`;
}

/** The sections left out between an excerpt and the nearest shown section, or the shown section it sits next to. */
type LeftOut = { from: number; to: number } | { nextTo: number };

/**
 * What lies between an excerpt and the shown sections: the gap before it, else the gap after it.
 * An excerpt can sit right next to the window: one chosen beyond the ±15 sections a result
 * carries while the window was narrow, which the window then grew to the edge of.
 */
function leftOut(section: WindowSection, shown: readonly number[]): LeftOut {
  const at = section.position;
  const before = Math.max(-1, ...shown.filter((p) => p < at));
  const after = Math.min(Number.MAX_SAFE_INTEGER, ...shown.filter((p) => p > at));
  if (before >= 0 && at - before > 1) return { from: before + 1, to: at - 1 };
  if (before < 0 && after - at > 1) return { from: at + 1, to: after - 1 };
  return { nextTo: at - before === 1 ? before : after };
}

function excerptNote(excerpts: readonly { position: number }[]): string {
  if (excerpts.length === 0) return '';
  const list = excerpts.map((e) => e.position + 1).join(' and ');
  return `, and separately section${excerpts.length === 1 ? '' : 's'} ${list}`;
}

interface Shown {
  first: number;
  last: number;
  excerpts: readonly { position: number }[];
}

function resultHeader(result: SearchResult, rank: number, shown: Shown | undefined): string {
  const uri = pageUri(result.source, result.path);
  const lines = [`===== Result ${rank} =====`];
  if (result.title) lines.push(`Title: ${oneLine(result.title)}`);
  lines.push(`Source: ${oneLine(result.source)}`, `Path: ${oneLine(result.path)}`, relevanceLine(result.relevance));
  if (shown) {
    const total = result.documentSections;
    const whole = shown.first === 0 && shown.last === total - 1;
    lines.push(
      `Content: section${shown.first === shown.last ? '' : 's'} ${range(shown.first + 1, shown.last + 1)}${excerptNote(shown.excerpts)} of the page's ${total}` +
        (whole ? ' (the whole page)' : `; the rest of the page: ${uri}`),
    );
  }
  return lines.join('\n');
}

/** Sizes for the fitter, each piece measured once. */
function measureFor(term: string, budgetChars: number): FitMeasure {
  const maxSection = Math.max(MIN_SECTION_CHARS, Math.floor(budgetChars * SECTION_SHARE));
  return {
    overhead: headerLine(term, 9, 9).length + 2,
    // The Content line is measured with wide numbers; the real one is never longer.
    result: (result, rank) => resultHeader(result, rank + 1, { first: 9998, last: 9999, excerpts: [] }).length + 4,
    section: (section) => sectionBlock(section, maxSection).length + 2,
    // The block, and what it adds to the Content line (measured as the longer, plural form).
    excerpt: (section) =>
      excerptBlock(section, { from: 9997, to: 9998 }, maxSection).length +
      2 +
      excerptNote([{ position: 9998 }, { position: 9999 }]).length,
  };
}

function headerLine(term: string, shown: number, omitted: number): string {
  const quoted = JSON.stringify(oneLine(term));
  if (shown === 0) return '';
  return (
    `${shown} result${shown === 1 ? '' : 's'} for ${quoted}, best first.` +
    (omitted > 0
      ? ` ${omitted} weaker result${omitted === 1 ? ' was' : 's were'} left out: search again with more specific terms for more.`
      : '')
  );
}

function noResultsText(term: string): string {
  return (
    `No documentation matched ${JSON.stringify(oneLine(term))}. This is not an error: search again with the documentation's own terms ` +
    '(API, option, field or header names, error messages), or describe the task in other words.'
  );
}

function toStructured(
  term: string,
  fitted: readonly FittedResult[],
  omittedResults: number,
  maxSection: number,
): SearchDocsOutput {
  return {
    query: term,
    results: fitted.map((f, i) => ({
      rank: i + 1,
      title: f.result.title,
      source: f.result.source,
      path: f.result.path,
      uri: pageUri(f.result.source, f.result.path),
      relevance: { label: f.result.relevance.label, stars: f.result.relevance.stars },
      score: f.result.score,
      pageSections: f.result.documentSections,
      sections: [
        ...f.result.sections.slice(f.from, f.to + 1).map((s) => ({
          position: s.position,
          headings: [...s.headings],
          text: clipSection(s.text, maxSection),
          isBest: s.isBest,
        })),
        ...f.excerpts.map((s) => ({
          position: s.position,
          headings: [...s.headings],
          text: clipSection(s.text, maxSection),
          isBest: false,
          excerpt: true,
        })),
      ],
    })),
    omittedResults,
  };
}

/** Renders search results within the budget (see fit-budget.ts). */
export function renderSearch(
  term: string,
  results: readonly SearchResult[],
  options: Partial<RenderOptions> = {},
): { text: string; structured: SearchDocsOutput } {
  const budgetChars = options.budgetChars ?? DEFAULT_RESPONSE_BUDGET_CHARS;
  const maxSection = Math.max(MIN_SECTION_CHARS, Math.floor(budgetChars * SECTION_SHARE));
  const fit = { ...DEFAULT_FIT, ...options, budgetChars };
  const { fitted, omittedResults } = fitToBudget(
    results,
    { ...fit, maxExcerpts: Math.min(fit.maxExcerpts, MAX_EXCERPTS_SHOWN) },
    measureFor(term, budgetChars),
  );
  const structured = toStructured(term, fitted, omittedResults, maxSection);
  if (fitted.length === 0) return { text: noResultsText(term), structured };
  const blocks = fitted.map((f, i) => {
    const shown = f.result.sections.slice(f.from, f.to + 1);
    const header = resultHeader(f.result, i + 1, {
      first: shown[0]!.position,
      last: shown.at(-1)!.position,
      excerpts: f.excerpts,
    });
    const positions = [...shown, ...f.excerpts].map((s) => s.position);
    const blocks = [
      ...shown.map((s) => sectionBlock(s, maxSection)),
      ...f.excerpts.map((s) => excerptBlock(s, leftOut(s, positions), maxSection)),
    ];
    return `${header}\n\n${blocks.join('\n\n')}`;
  });
  return { text: `${headerLine(term, fitted.length, omittedResults)}\n\n${blocks.join('\n\n')}`, structured };
}
