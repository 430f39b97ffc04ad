import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../../indexer/chunk/chunk.js';
import { textToMarkdown } from '../../../indexer/formats/text.js';

const headingsOf = (text: string) => chunkMarkdown(textToMarkdown(text).markdown).sections.map((s) => s.headings);

describe('textToMarkdown', () => {
  it('reads underlined lines and short lines in capitals as headings, blank lines as paragraph breaks', () => {
    const text =
      'Widget manual\n=============\n\nWidgets sync notes.\nThey run nightly.\n\nINSTALLATION\n\nRun the installer.\n\n' +
      'Upgrading\n---------\nStop the daemon first.\n';
    expect(textToMarkdown(text).markdown).toBe(
      '# Widget manual\n\nWidgets sync notes.\nThey run nightly.\n\n## INSTALLATION\n\nRun the installer.\n\n## Upgrading\n\nStop the daemon first.\n',
    );
    expect(headingsOf(text)).toEqual([
      ['Widget manual'],
      ['Widget manual', 'INSTALLATION'],
      ['Widget manual', 'Upgrading'],
    ]);
  });

  it('keeps an indented paragraph as preformatted code, and escapes what Markdown would read as markup', () => {
    const text = 'Run:\n\n    $ widget --sync\n      --verbose\n\nUse <tag> and *stars* or # signs.\n1. not a list\n';
    expect(textToMarkdown(text).markdown).toBe(
      'Run:\n\n```\n$ widget --sync\n  --verbose\n```\n\nUse \\<tag> and \\*stars\\* or # signs.\n1\\. not a list\n',
    );
  });

  it('reads an indented paragraph of 300,000 lines (too many to spread into one call)', () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `    line ${i}`).join('\n');
    const { markdown } = textToMarkdown(`Log:\n\n${lines}\n`);
    expect(markdown.startsWith('Log:\n\n```\nline 0\nline 1\n')).toBe(true);
  });

  it('does not take a lowercase line, a long line in capitals or a short underline for a heading', () => {
    expect(
      headingsOf('just words\n\nTHIS LINE IS IN CAPITALS BUT FAR TOO LONG TO BE A HEADING OF ANY KIND\n\nA\n--\n'),
    ).toEqual([[]]);
  });

  it('reads a separator line standing alone as a rule, never as frontmatter', () => {
    const doc = chunkMarkdown(textToMarkdown('---\ntitle: x\n---\nbody\n').markdown);
    expect(doc.sections.map((s) => s.headings)).toEqual([[], ['title: x']]);
    expect(doc.sections[0]).toMatchObject({ text: '***\n\n', role: 'empty' });
  });
});
