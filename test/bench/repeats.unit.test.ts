import { describe, expect, it } from 'vitest';
import { repeatedSentences } from '../../bench/lib/repeats.js';

/** The benchmark's count of facts said twice in one response (bench/lib/repeats.ts). */

describe('repeatedSentences', () => {
  it('counts a sentence shown in two sections once, whatever its links, emphasis or line wrapping', () => {
    const one = 'Tokens last about four hours; see [the token guide](a.md) before they expire.';
    const two = 'Tokens last **about four hours**; see [the token guide](../b.md)\nbefore they expire.';
    expect(repeatedSentences([one, two])).toBe(1);
    expect(repeatedSentences([one, 'Something else entirely, said only in this section.'])).toBe(0);
  });

  it('does not count wrapped fragments of two different sentences, headings, link definitions, code or table headers', () => {
    const a =
      'To turn on search sharing, add the following lines to\nmkdocs.yml in your project:\n\n### Options inherited from parent commands\n\n' +
      '[commonmark]: https://spec.commonmark.org/current/\n\n```\nimport { defineConfig } from "vitest/config"\n```\n\n' +
      '| Metric name here | Type of the metric | Description |\n| --- | --- | --- |\n| a | b | c |';
    const b =
      'To turn on search highlighting, add the following lines to\nmkdocs.yml in your project:\n\n### Options inherited from parent commands\n\n' +
      '[commonmark]: https://spec.commonmark.org/current/\n\n```\nimport { defineConfig } from "vitest/config"\n```\n\n' +
      '| Metric name here | Type of the metric | Description |\n| --- | --- | --- |\n| d | e | f |';
    expect(repeatedSentences([a, b])).toBe(0);
  });

  it("does not count a sentence the docs repeat inside one section: that is the page's, not the response's", () => {
    const tabs =
      'Replace the placeholder with the installation identifier.\n\n=== "curl"\n\nReplace the placeholder with the installation identifier.';
    expect(repeatedSentences([tabs])).toBe(0);
    expect(repeatedSentences([tabs, tabs])).toBe(1);
  });
});
