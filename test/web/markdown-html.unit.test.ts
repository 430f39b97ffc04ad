import { describe, expect, it } from 'vitest';
import { boundedNesting, MAX_NESTING, markdownToHtml } from '../../src/web/markdown-html.js';

/**
 * The search page's Markdown rendering on its own: whatever a section's Markdown carries (the
 * indexer's cleaning drops most raw HTML today; this must not depend on it), the HTML the page
 * gets has no script, event handler, script URL, frame or form.
 */

const HOSTILE = [
  '# Title <script>window.__pwned = 1</script>',
  '',
  '<script>window.__pwned = 2</script>',
  '',
  '<img src="x" onerror="window.__pwned = 3">',
  '',
  '[link](javascript:window.__pwned=4) and ![image](javascript:window.__pwned=5)',
  '',
  '<iframe srcdoc="<script>parent.__pwned=6</script>"></iframe>',
  '',
  'Text with <b onmouseover="window.__pwned=7">bold</b>, <a href="javascript:alert(8)">a link</a>, <svg onload="x()"></svg>',
  '',
  '<form action="https://evil.example"><input name="q"></form>',
  '',
  '| a | b |',
  '|---|---|',
  '| `code <script>` | **kept** |',
].join('\n');

describe('the search page renders Markdown', () => {
  it('as sanitised HTML: no script, handler, script URL, frame or form, and the text kept', async () => {
    const render = await markdownToHtml();
    const html = render(HOSTILE).text;
    expect(html).not.toMatch(/<script|<iframe|<svg|<form|<input|\son[a-z]+=|javascript:/i);
    expect(html).toContain('<h1');
    expect(html).toContain('<table>');
    expect(html).toContain('<code>code &#x3C;script></code>');
    expect(html).toContain('<strong>kept</strong>');
    expect(html).toContain('bold');
  });

  it('bounds nesting: 6,000 nested quotes render as 16, deep indentation is cut (issue 40)', async () => {
    const render = await markdownToHtml();
    const quoted = render(`${'>'.repeat(6000)} deep`).text;
    expect(quoted.match(/<blockquote>/g)).toHaveLength(MAX_NESTING);
    expect(quoted).toContain('deep');
    expect(boundedNesting(`${' '.repeat(500)}x\n> > y`)).toBe(`${' '.repeat(64)}x\n> > y`);
  });
});
