import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../indexer/chunk/chunk.js';
import { cleanDialects } from '../../indexer/chunk/dialects/clean.js';

/** Links a reader sees as text, and entities as characters (indexer/chunk/dialects/link-text.ts). */

const clean = (source: string) => cleanDialects(source, parseMarkdown).text;

describe('links shown as their text', () => {
  it("shows Hugo's glossary links as their text", () => {
    expect(clean('Typically a [page resource](g) or a [global resource](g).\n')).toBe(
      'Typically a page resource or a global resource.\n',
    );
    expect(clean('Access nested values by [chaining](g) the [*identifiers*](g):\n')).toBe(
      'Access nested values by chaining the *identifiers*:\n',
    );
  });

  it('keeps other links as written', () => {
    const page = 'See [the guide](guide.md) and [g](https://example.com/g).\n';
    expect(clean(page)).toBe(page);
  });

  it('shows reference-style links as their text, and drops their definitions', () => {
    const page = [
      'Use the [instant loading][instant] feature, or [search].',
      '',
      'Unrelated text stays.',
      '',
      '[instant]: ../setup/instant.md',
      '[search]: ../plugins/search.md "Search"',
      '',
    ].join('\n');
    // Blank lines left at the page's end are no text a reader sees.
    expect(clean(page).trimEnd()).toBe('Use the instant loading feature, or search.\n\nUnrelated text stays.');
  });

  it('leaves brackets with no definition as written', () => {
    const page = 'An array such as [1, 2] or [TODO][later].\n';
    expect(clean(page)).toBe(page);
  });

  it('leaves code alone', () => {
    const page = 'Write `[page resource](g)` or:\n\n```md\n[term](g) &nbsp; [x][y]\n```\n';
    expect(clean(page)).toBe(page);
  });
});

describe('HTML entities in prose', () => {
  it('decodes spaces, dashes and quotes', () => {
    expect(clean('Press&nbsp;Enter &mdash; then wait&#160;5&#x2009;s &hellip; &ldquo;done&rdquo;.\n')).toBe(
      'Press Enter — then wait 5\u2009s … “done”.\n',
    );
  });

  it('keeps an entity that would become markup when parsed again', () => {
    const page = 'Write &lt;div&gt; &amp; &#42;not emphasis&#42; and &unknown;.\n';
    expect(clean(page)).toBe(page);
  });
});
