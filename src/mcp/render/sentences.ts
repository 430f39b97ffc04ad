/**
 * Sentences as a response compares them: a result whose section says again what a better result
 * already showed adds nothing. A sentence is a line or a run ending in . ! or ?, normalised
 * (markup, case and spacing aside); short ones (a heading, a closing brace) are not facts, nor
 * are the lines of code blocks (two pages sharing an `import` line say nothing twice).
 */

const MIN_SENTENCE_CHARS = 30;

/** Fenced code blocks: their lines are examples (a shared `import` line is no repeated fact), not sentences. */
const FENCED = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gm;

export function sentenceKeys(text: string): string[] {
  return text
    .replace(FENCED, '\n')
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) =>
      s
        .replace(/[*`_#>|-]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .toLowerCase(),
    )
    .filter((s) => s.length >= MIN_SENTENCE_CHARS && /\p{L}{3}/u.test(s));
}

/** The share of `keys` not in `shown` (1 when there are none to compare). */
export function novelty(keys: readonly string[], shown: ReadonlySet<string>): number {
  if (keys.length === 0) return 1;
  let fresh = 0;
  for (const k of keys) if (!shown.has(k)) fresh++;
  return fresh / keys.length;
}
