import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../indexer/chunk/chunk.js';
import { htmlToMarkdown } from '../../../indexer/formats/html.js';

describe('htmlToMarkdown (fragments)', () => {
  it('turns a raw HTML table into a Markdown table the chunker parses as one', () => {
    const md = htmlToMarkdown(
      '<table class="properties"><thead><tr><th>Name</th><th>Type</th></tr></thead>' +
        '<tbody><tr><td><code>maxRetries</code></td><td>number | undefined</td></tr></tbody></table>',
    );
    expect(md).toBe('| Name | Type |\n| - | - |\n| `maxRetries` | number \\| undefined |');
    expect(parseMarkdown(md).children.map((n) => n.type)).toEqual(['table']);
  });

  it('keeps heading levels, links, emphasis and lists', () => {
    expect(
      htmlToMarkdown(
        '<h3>Retries</h3><p>See <a href="/retry">the <b>retry</b> guide</a>.</p><ol><li>one</li><li>two</li></ol>',
      ),
    ).toBe('### Retries\n\nSee [the **retry** guide](/retry).\n\n1. one\n2. two');
  });

  it('keeps a code block and its language wherever the generator wrote it', () => {
    const cases: [string, string][] = [
      ['<pre><code class="language-go">x := 1</code></pre>', 'go'],
      [
        '<div class="highlight-python notranslate"><div class="highlight"><pre><span></span>x = 1</pre></div></div>',
        'python',
      ],
      ['<div class="language-yaml highlight"><pre><span></span><code>a: 1</code></pre></div>', 'yaml'],
      ['<pre class="prism-code language-tsx"><code>let a</code></pre>', 'tsx'],
      ['<pre tabindex="0" class="chroma"><code class="language-toml" data-lang="toml">a = 1</code></pre>', 'toml'],
      ['<pre data-syntaxhighlighter-params="brush: java; gutter: false">int a;</pre>', 'java'],
    ];
    for (const [html, language] of cases) expect(htmlToMarkdown(html)).toMatch(new RegExp(`^\`\`\`${language}\\n`));
    expect(htmlToMarkdown('<div class="highlight-default"><pre>x</pre></div>')).toBe('```\nx\n```');
  });

  it('keeps the code of a line-numbered code table, not its numbers', () => {
    const html =
      '<div class="language-python highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td>' +
      '<td class="code"><div><pre><span></span><code>a = 1\nb = 2\n</code></pre></div></td></tr></table></div>';
    expect(htmlToMarkdown(html)).toBe('```python\na = 1\nb = 2\n```');
    expect(
      htmlToMarkdown(
        '<pre><code class="language-sh"><span class="linenos">1</span>ls\n<span class="linenos">2</span>pwd</code></pre>',
      ),
    ).toBe('```sh\nls\npwd\n```');
  });

  it('leaves out what is never read as words: scripts, styles, comments, buttons, heading anchors', () => {
    const md = htmlToMarkdown(
      '<h2 id="setup">Setup<a class="headerlink" href="#setup" title="Link to this heading">¶</a></h2>' +
        '<h2 id="run">Run<a href="#run" class="hash-link" aria-label="Direct link to Run">\u200b</a></h2>' +
        '<h2 id="go">Go <a href="#go">#</a></h2>' +
        '<script>alert("x")</script><style>p{}</style><!-- hidden note --><button>Copy</button>' +
        '<p>Body <a href="#setup">see Setup</a></p>',
    );
    expect(md).toBe('## Setup\n\n## Run\n\n## Go\n\nBody [see Setup](#setup)');
  });

  it('gives inline HTML as inline Markdown and nothing for markup without text', () => {
    expect(htmlToMarkdown('Press <kbd>Ctrl</kbd>+<kbd>C</kbd>')).toBe('Press `Ctrl`+`C`');
    expect(htmlToMarkdown('<br>')).toBe('');
    expect(htmlToMarkdown('first<br>second<br>')).toBe('first\\\nsecond');
    expect(htmlToMarkdown('<!-- only a comment -->')).toBe('');
  });
});
