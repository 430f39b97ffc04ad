import type { SearchResult, WindowSection } from '../../search/types.js';

/**
 * How likely a result, and each section of it, holds the answer: what a response spends its
 * characters on. Two logistic models fitted on the tuning halves of every labelled set, judged at
 * the answer (a section holds it when the answer's labelled words are in its text); the fit and
 * its command are in bench/results/tuning.md. Pure functions of what the engine returns.
 *
 * - A page holds the answer more often the surer the engine is of it and the higher it ranks
 *   (rank 1 at confidence 1: 0.89; rank 5 at 0.25: 0.09).
 * - Within a page, the best match holds it three times in four. Another section does so mostly
 *   when it scored nearly as high as the best match; the chance falls with its distance from the
 *   best match, is higher before it than after (a page's setup precedes its details) and for
 *   longer sections, and is nil for navigation and empty sections (none of 206 held an answer)
 *   and small for very short ones.
 * - A query that names a page's topic (its title holds half the query or more) wants the page's
 *   opening and setup, not only its best-scoring subsection: the opening's chance is raised
 *   (neutral on the tuning halves, where best matches rarely miss an opening; kept for the pages
 *   whose setup sits at the top). How much of the query a
 *   section matches adds nothing once its score is known.
 */
export const ANSWER_MODEL = {
  page: { intercept: -0.9, confidence: 3.04, logRank: -1.36 },
  section: {
    best: 0.77,
    intercept: -5.04,
    score: 4.63,
    logDistance: -0.5,
    before: 0.79,
    short: -2.62,
    logChars: 0.124,
    match: 0,
    intro: 1.5,
  },
} as const;

/** A section shorter than this (a heading and a line) almost never holds an answer: 1 in 50 of the high-scoring ones on the tuning halves. */
const MIN_ANSWER_CHARS = 120;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The chance the page of the result at 0-based `rank` holds the answer. */
export function pageChance(result: Pick<SearchResult, 'confidence'>, rank: number): number {
  const m = ANSWER_MODEL.page;
  return sigmoid(m.intercept + m.confidence * result.confidence + m.logRank * Math.log(rank + 1));
}

/** Of this share of the query in the page's title and more, a query names the page's topic. */
const NAMES_TOPIC = 0.5;

/** Whether `section` is the opening a query naming its page's topic wants: the page's first section that says something. */
export function isOpening(result: Pick<SearchResult, 'titleMatch' | 'sections'>, section: WindowSection): boolean {
  if (result.titleMatch < NAMES_TOPIC || result.sections[0]?.position !== 0) return false;
  const opening = result.sections.find((s) => answers(s));
  return opening === section;
}

function answers(section: WindowSection): boolean {
  return section.role === 'content' && section.text.length >= MIN_ANSWER_CHARS;
}

/**
 * The chance `section` holds the answer, given its page does and its best match sits at `best`;
 * `opening`: the page's opening, for a query that names the page's topic (isOpening).
 */
export function sectionChance(section: WindowSection, best: number, opening = false): number {
  const m = ANSWER_MODEL.section;
  if (section.role !== 'content') return 0;
  if (section.position === best) return m.best;
  const distance = Math.abs(section.position - best);
  return sigmoid(
    m.intercept +
      m.score * section.score +
      m.logDistance * Math.log(1 + distance) +
      (section.position < best ? m.before : 0) +
      (answers(section) ? 0 : m.short) +
      m.logChars * Math.log(1 + section.text.length) +
      m.match * section.match +
      (opening ? m.intro : 0),
  );
}
