/**
 * The text an answer phrase is looked for in. Labels are written by reading a page; the judge
 * looks for them in what a response shows. Both sides go through this one normalisation, so a
 * phrase is found whether or not the words sit in a link, in emphasis or across a line break:
 * links and images become their text, `*` and backticks go, runs of white space become one space,
 * and everything is lower-cased.
 */
export function answerText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/[*`]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Answer phrases are case-insensitive regular expressions (JavaScript syntax) over `answerText`. */
export function answerPattern(source: string): RegExp {
  return new RegExp(source, 'i');
}

export function showsPhrase(text: string, phrases: readonly string[]): boolean {
  const normal = answerText(text);
  return phrases.some((p) => answerPattern(p).test(normal));
}
