import { describe, expect, it } from 'vitest';
import { chunkMarkdown, parseMarkdown } from '../../indexer/chunk/chunk.js';
import { chunkedText } from '../helpers/chunked-text.js';
import { lexicalFields } from '../../indexer/write/section-text.js';
import { tokenize } from '../../src/index/tokenize.js';

/** Inline dialect markup and raw HTML, chunked as readers see them (pages in the corpora's style). */

/** Every word the lexical index takes from a page (title, headings, body). */
function indexedWords(md: string): Set<string> {
  const doc = chunkMarkdown(md);
  return new Set(
    doc.sections.flatMap((s) => {
      const f = lexicalFields(doc.title ?? '', s);
      return [...f.title, ...f.headings, ...f.body];
    }),
  );
}

describe('inline dialects', () => {
  it('KumaScript: naming macros become the name, boilerplate macros go, in headings and text', () => {
    const page = [
      '---',
      'title: Sec-WebSocket-Accept',
      '---',
      '',
      '{{HTTPSidebar}}',
      '',
      'The {{HTTPHeader("Sec-WebSocket-Accept")}} response header is sent in reply to a {{Glossary("CORS", "cross-origin")}} request',
      'for a {{HTMLElement("div")}}; see {{jsxref("Array.prototype.map", "map()")}}.',
      '',
      '## The {{HTTPHeader("Sec-WebSocket-Key")}} header',
      '',
      'Computed from the key.',
      '',
      '## Specifications',
      '',
      '{{Specifications}}',
      '',
      '## Browser compatibility',
      '',
      '{{Compat}}',
      '',
    ].join('\n');
    const doc = chunkMarkdown(page);
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual([
      'Sec-WebSocket-Accept',
      'The Sec-WebSocket-Key header',
      'Specifications',
      'Browser compatibility',
    ]);
    expect(doc.sections[0]!.text).toBe(
      '\n\nThe `Sec-WebSocket-Accept` response header is sent in reply to a cross-origin request\n' +
        'for a `<div>`; see `map()`.\n\n',
    );
    expect(doc.sections.slice(2).map((s) => s.role)).toEqual(['empty', 'empty']);
  });

  it('words inside macro arguments and shortcode parameters are not indexed', () => {
    const words = indexedWords(
      '# Sunset\n\n{{EmbedInteractiveExample("pages/tabbed/zebra.html")}}\n\n' +
        '{{< figure src="giraffe.jpg" alt="A giraffe" >}}\n\nPhotos of the evening sky.\n',
    );
    const has = (word: string) => tokenize(word).every((t) => words.has(t));
    expect(has('evening')).toBe(true);
    for (const hidden of ['zebra', 'tabbed', 'giraffe', 'figure', 'EmbedInteractiveExample'])
      expect(has(hidden)).toBe(false);
  });

  it('Hugo: shortcode tags go, a paired one keeps its inner text, one shown in code stays', () => {
    const page = [
      '---',
      'title: Configure server',
      '---',
      '',
      '{{% glossary-term "cascade" %}}',
      '',
      '`fromHeaders`',
      ': {{< new-in 0.144.0 />}}',
      ': Headers to match.',
      '',
      '{{% note %}}Drafts are not published.{{% /note %}}',
      '',
      'Write `{{< new-in 0.140.0 />}}` to mark a feature.',
      '',
    ].join('\n');
    const doc = chunkMarkdown(page);
    expect(doc.title).toBe('Configure server');
    expect(doc.sections.map((s) => s.headings)).toEqual([['Configure server']]);
    expect(doc.sections[0]!.text).toBe(
      '\n\n`fromHeaders`\n: \n: Headers to match.\n\nDrafts are not published.\n\n' +
        'Write `{{< new-in 0.140.0 />}}` to mark a feature.\n',
    );
  });

  it('attribute blocks in any spacing go from headings, links and paragraphs; include directives go', () => {
    const page = [
      '# First Steps { #first-steps }',
      '',
      '[Subscribe](#){ .md-button .md-button--primary } now.',
      '',
      '![Logo](logo.png){ width="300" loading=lazy }',
      '',
      'A styled paragraph.',
      '{: .note }',
      '',
      '{* ../../docs_src/first_steps/tutorial001.py hl[3] *}',
      '',
      '{!docs/operator-manual/tested-kubernetes-versions.md!}',
      '',
      'Objects like `{ #id }` in code stay.',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '# First Steps\n\n[Subscribe](#) now.\n\n![Logo](logo.png)\n\nA styled paragraph.\n\n' +
        'Objects like `{ #id }` in code stay.\n',
    );
  });

  it('MkDocs Material comment macros and icons go; PyMdown keys and insertions show their text', () => {
    const page =
      '### Search suggestions\n\n<!-- md:version 7.2.0 -->\n<!-- md:feature -->\n<!-- md:flag experimental -->\n\n' +
      'Accept it with the ++arrow-right++ key: ^^search suggestions^^ :material-check:\n';
    expect(chunkedText(page)).toBe(
      '### Search suggestions\n\nAccept it with the arrow-right key: search suggestions \n',
    );
  });

  it("an icon opening a list item goes without moving the item's content column (its body stays out of code)", () => {
    const page =
      '-   :material-scale-balance:{ .lg .middle } __Open Source, MIT__\n\n    ---\n\n    Licensed under MIT.\n';
    expect(chunkedText(page)).toBe('-   __Open Source, MIT__\n\n    ---\n\n    Licensed under MIT.\n');
    expect(JSON.stringify(parseMarkdown(chunkedText(page)))).not.toContain('"code"');
  });

  it('HTML blocks become Markdown (a table a table), inline tags leave their text', () => {
    const page = [
      '## Properties',
      '',
      '<table class="properties">',
      '  <tr><th>Header type</th><td>Response header</td></tr>',
      '  <tr><th>Forbidden</th><td><code>yes</code></td></tr>',
      '</table>',
      '',
      'Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.<br>Done.',
      '',
      '<details>',
      '<summary>Why is it forbidden?</summary>',
      '',
      'Browsers set it.',
      '',
      '</details>',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '## Properties\n\n| Header type | Response header |\n| - | - |\n| Forbidden | `yes` |\n\n' +
        'Press Ctrl+C to copy. Done.\n\nWhy is it forbidden?\n\nBrowsers set it.\n',
    );
  });

  it('MDX: components show their label and children, self-closing ones and JSX comments go', () => {
    const page = [
      '### Install dependencies',
      '',
      '<InstallSnippet pkgs="@trpc/server zod" />',
      '',
      '{/* keep in sync with the example app */}',
      '',
      '<Tabs>',
      '  <TabItem value="npm" label="npm" default>',
      '',
      '```sh',
      'npm install -g edge-runtime',
      '```',
      '',
      '  </TabItem>',
      '</Tabs>',
      '',
      'Ready: <Badge type="tip">stable</Badge>.',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '### Install dependencies\n\n**npm**\n\n```sh\nnpm install -g edge-runtime\n```\n\nReady: stable.\n',
    );
  });

  it('HTML nested deeper than the converter can follow shows its text instead of failing the page', () => {
    const page = `# Deep\n\n${'<div>'.repeat(20_000)}inner words${'</div>'.repeat(20_000)}\n`;
    expect(chunkedText(page)).toBe('# Deep\n\ninner words\n');
  });

  it('a frontmatter title as readers see it: no shortcode, macro, attribute block or tag', () => {
    const doc = chunkMarkdown(
      "---\ntitle: 'Install <small>v2</small> {{< new-in 0.140.0 >}} { #install }'\n---\n\nText.\n",
    );
    expect(doc.title).toBe('Install v2');
    expect(doc.sections.map((s) => s.headings)).toEqual([['Install v2']]);
  });
});
