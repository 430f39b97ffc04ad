import { describe, expect, it } from 'vitest';
import { chunkMarkdown, parseMarkdown } from '../../indexer/chunk/chunk.js';
import { chunkedText } from '../helpers/chunked-text.js';

/** Block containers of each site generator, chunked as their readers see them (pages in the corpora's style). */

describe('block dialects', () => {
  it('MkDocs Material: admonitions and tabs keep their title and body, unindented; code in them is kept', () => {
    const page = [
      '# First Steps { #first-steps }',
      '',
      '!!! note "Phasellus posuere"',
      '',
      '    The body of the note, which **CommonMark** would read as code.',
      '',
      '    ``` yaml',
      '    theme:',
      '      name: material',
      '    ```',
      '',
      '??? tip',
      '    Collapsed by default.',
      '',
      '???+ warning annotate "Open warning"',
      '    Open by default.',
      '',
      '=== "Unordered list"',
      '',
      '    * Sed sagittis eleifend rutrum',
      '',
      '=== "Ordered list"',
      '',
      '    1. Sed sagittis eleifend rutrum',
      '',
      'After the tabs.',
      '',
    ].join('\n');
    const doc = chunkMarkdown(page);
    expect(doc.title).toBe('First Steps');
    expect(doc.sections[0]!.text).toBe(
      [
        '# First Steps',
        '',
        '**Phasellus posuere**',
        '',
        'The body of the note, which **CommonMark** would read as code.',
        '',
        '``` yaml',
        'theme:',
        '  name: material',
        '```',
        '',
        '**Tip**',
        '',
        'Collapsed by default.',
        '',
        '**Open warning**',
        '',
        'Open by default.',
        '',
        '**Unordered list**',
        '',
        '* Sed sagittis eleifend rutrum',
        '',
        '**Ordered list**',
        '',
        '1. Sed sagittis eleifend rutrum',
        '',
        'After the tabs.',
        '',
      ].join('\n'),
    );
  });

  it('leaves container syntax shown inside a code block as written, even nested fences indented past a closing fence', () => {
    const example = [
      '``` markdown title="Content tabs in admonition"',
      '!!! example',
      '',
      '    === "Unordered List"',
      '',
      '        ``` markdown',
      '        * Sed sagittis',
      '        ```',
      '',
      '/// note | Shown as written',
      '///',
      '```',
      '',
    ].join('\n');
    expect(chunkedText(`# Usage\n\n${example}`)).toBe(`# Usage\n\n${example}`);
  });

  it('PyMdown blocks: the title, the body, no options or closing line', () => {
    const page =
      '## Caption\n\n/// note | Read this first\n    type: warning\nThe body.\n///\n\n/// caption\nImage caption\n///\n';
    expect(chunkedText(page)).toBe('## Caption\n\n**Read this first**\n\nThe body.\n\nImage caption\n');
  });

  it('Docusaurus and VitePress colon fences: the title (bracketed, after the type, or the type), the body; nesting', () => {
    const page = [
      ':::tip[Use the batch link]',
      'Batching saves round trips.',
      ':::',
      '',
      '::::info Requirements',
      'Node 18.',
      '',
      ':::caution',
      'Nested.',
      ':::',
      '::::',
      '',
      '::: code-group',
      '```js [vite.config.js]',
      'export default {}',
      '```',
      ':::',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '**Use the batch link**\n\nBatching saves round trips.\n\n**Requirements**\n\nNode 18.\n\n**Caution**\n\nNested.\n\n' +
        '```js [vite.config.js]\nexport default {}\n```\n',
    );
  });

  it('VitePress tab sets: each `== label` line is the tab title', () => {
    const page =
      '::: tabs key:provider\n== Playwright\n\nPin your version.\n\n== WebdriverIO\n\nUse the service.\n:::\n';
    expect(chunkedText(page)).toBe('**Playwright**\n\nPin your version.\n\n**WebdriverIO**\n\nUse the service.\n');
  });

  it('GitHub and Obsidian alerts: the type or custom title, then the text, still quoted', () => {
    expect(chunkedText('> [!NOTE]\n> For content in CJK languages.\n')).toBe(
      '> **Note**\n>\n> For content in CJK languages.\n',
    );
    expect(chunkedText('> [!tip]- Custom title\n> Folded.\n')).toBe('> **Custom title**\n>\n> Folded.\n');
  });

  it('MyST directives: callouts keep title and body without options; code-block stays code; includes and toctrees go', () => {
    const page = [
      '```{note} Before you start',
      ':class: dropdown',
      'Install the package first.',
      '```',
      '',
      '```{code-block} python',
      ':linenos:',
      'print("hi")',
      '```',
      '',
      '```{toctree}',
      'install',
      'usage',
      '```',
      '',
      '```{include} ../README.md',
      '```',
      'End.',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '**Before you start**\n\nInstall the package first.\n\n```python\nprint("hi")\n```\n\nEnd.\n',
    );
  });

  it('snippet and MDX statement lines go; the same lines inside code stay', () => {
    const page = [
      "import Tabs from '@theme/Tabs';",
      "import { InstallSnippet } from '@site/src/components/InstallSnippet';",
      'export const meta = {',
      "  title: 'x',",
      '};',
      '',
      '# Setup',
      '',
      '--8<-- "includes/abbreviations.md"',
      '',
      'Text.',
      '',
      '```ts',
      "import { initTRPC } from '@trpc/server';",
      '--8<-- "docs_src/app.py"',
      '```',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '# Setup\n\nText.\n\n```ts\nimport { initTRPC } from \'@trpc/server\';\n--8<-- "docs_src/app.py"\n```\n',
    );
  });

  it("Hugo: paired code shortcodes become fenced code in the content's language", () => {
    const page = [
      '---',
      'title: ReadingTime',
      '---',
      '',
      'Reading speed varies by language.',
      '',
      '{{< code-toggle file=hugo >}}',
      '[languages.de.params]',
      'reading_speed = 179',
      '{{< /code-toggle >}}',
      '',
      '{{< highlight go "linenos=inline" >}}',
      'package main',
      '{{< /highlight >}}',
      '',
      '{{< code-toggle config=server />}}',
      '',
      'End.',
      '',
    ].join('\n');
    expect(chunkedText(page)).toBe(
      '\n\nReading speed varies by language.\n\n```toml\n[languages.de.params]\nreading_speed = 179\n```\n\n' +
        '```go\npackage main\n```\n\nEnd.\n',
    );
  });

  it("definition lists: a definition's indented continuation, and an admonition opening one, are text, not code", () => {
    const page = [
      '`search.focus`',
      '',
      ':   This mode is active when the _search is focused_. It provides several key',
      '    bindings to make search accessible:',
      '',
      '    * ++esc++ , ++tab++ : close search dialog',
      '',
      ':   !!! note',
      '',
      '        Lorem ipsum dolor sit amet.',
      '',
    ].join('\n');
    const tree = parseMarkdown(chunkedText(page));
    expect(tree.children.map((n) => n.type)).not.toContain('code');
    expect(chunkedText(page)).toBe(
      '`search.focus`\n\n:   This mode is active when the _search is focused_. It provides several key\nbindings to make search accessible:\n\n' +
        '* esc , tab : close search dialog\n\n:   **Note**\n\nLorem ipsum dolor sit amet.\n',
    );
  });
});
