import { answerText } from './answer-text.js';

/**
 * Facts said twice in one response: sentences of prose (at least MIN_SENTENCE_CHARS, normalised
 * as answer phrases are; code blocks are examples, not sentences) that occur more than once
 * across the text a response shows. A response
 * that repeats "about 4 hours" in five results spends four results' room on nothing new.
 */

const MIN_SENTENCE_CHARS = 30;

/** Fenced code blocks: their lines are examples (a shared `import` line is no repeated fact), not sentences. */
const FENCED = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gm;

function sentences(text: string): string[] {
  return text
    .replace(FENCED, '\n')
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => answerText(s).trim())
    .filter((s) => s.length >= MIN_SENTENCE_CHARS && /[a-z]{3}/.test(s));
}

/** How many distinct sentences occur more than once across `texts` (each result's shown text). */
export function repeatedSentences(texts: readonly string[]): number {
  const seen = new Map<string, number>();
  for (const text of texts) for (const s of sentences(text)) seen.set(s, (seen.get(s) ?? 0) + 1);
  let repeated = 0;
  for (const count of seen.values()) if (count > 1) repeated++;
  return repeated;
}
