import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown, parseMarkdown } from '../../indexer/chunk/chunk.js';
import { MAX_HEADING_CHARS } from '../../indexer/formats/one-line.js';
import { cleanDialects } from '../../indexer/chunk/dialects/clean.js';
import { BLOCK_SPLIT_FACTOR, MAX_SPLIT_OVERSHOOT } from '../../indexer/chunk/split-section.js';

const small = { maxSectionChars: 200 };

/** Everything after the frontmatter, in order, exactly once. */
function body(source: string): string {
  // YAML frontmatter, empty (`---` right after `---`) or not, as remark-frontmatter reads it.
  const m = /^---\r?\n(?:[\s\S]*?\r?\n)??---(\r?\n|$)/.exec(source);
  return m ? source.slice(m[0].length - m[1]!.length) : source;
}

describe('chunkMarkdown', () => {
  it('records headings as readers see them: no badges, components or attribute blocks', () => {
    const doc = chunkMarkdown(
      '# Running Tests <Badge type="danger">advanced</Badge> {#running-tests}\n\n## passWithNoTests <CRoot />\n\nx\n\n' +
        '## `vi.hoisted` <Version>4.0.0</Version> {#vi-hoisted}\n\ny\n\n## Styled {.note}\n\nz\n\n## First Steps { #first-steps }\n\nw\n',
    );
    expect(doc.title).toBe('Running Tests');
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual([
      'Running Tests',
      'passWithNoTests',
      'vi.hoisted',
      'Styled',
      'First Steps',
    ]);
    expect(doc.sections[2]!.text).toBe('## `vi.hoisted`\n\ny\n\n');
  });

  it('makes one section per heading with the breadcrumb of enclosing headings', () => {
    const doc = chunkMarkdown('# Guide\nintro\n## Install\nsteps\n### Linux\napt\n## Use\nrun\n');
    expect(doc.title).toBe('Guide');
    expect(doc.sections.map((s) => s.headings)).toEqual([
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'Linux'],
      ['Guide', 'Use'],
    ]);
    expect(doc.sections[2]!.text).toBe('### Linux\napt\n');
  });

  it('does not take # lines inside code fences for headings', () => {
    const doc = chunkMarkdown('# A\n```bash\n# not a heading\nls\n```\n## B\nx\n');
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual(['A', 'B']);
    expect(doc.sections[0]!.text).toContain('# not a heading');
  });

  it('keeps tables inside their section, and shows an HTML block as the Markdown it renders', () => {
    const doc = chunkMarkdown(
      '# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div class="note">\n<h2>html heading</h2>\n<p>Some <b>text</b>.</p>\n</div>\n\n## Next\n',
    );
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual(['T', 'html heading', 'Next']);
    expect(doc.sections[0]!.text).toContain('| 1 | 2 |');
    expect(doc.sections[1]!.text).toBe('## html heading\n\nSome **text**.\n\n');
  });

  it('takes the title from frontmatter first, then the first H1', () => {
    expect(chunkMarkdown('---\ntitle: From Front\n---\n# H1 Title\ntext\n').title).toBe('From Front');
    expect(chunkMarkdown('## Sub\n# Late H1\n').title).toBe('Late H1');
    expect(chunkMarkdown('no headings at all\n').title).toBeUndefined();
    expect(chunkMarkdown('---\ntitle: [unclosed\n---\n# Fallback\n').title).toBe('Fallback');
  });

  it('takes a page without H1 its title from the heading that opens it and heads all of it (an mdBook sub-chapter)', () => {
    expect(chunkMarkdown('## Reading a File\n\ntext\n\n### Reading the Contents\n\nmore\n').title).toBe(
      'Reading a File',
    );
    expect(chunkMarkdown('\n\n## After Blank Lines\n\ntext\n').title).toBe('After Blank Lines');
    // Not when text comes first, nor when a later heading is as shallow: then no heading names the page.
    expect(chunkMarkdown('An intro.\n\n## Usage\n\ntext\n').title).toBeUndefined();
    expect(chunkMarkdown('## Install\n\ntext\n\n## Usage\n\ntext\n').title).toBeUndefined();
    expect(chunkMarkdown('### Deep\n\ntext\n\n## Shallower\n\ntext\n').title).toBeUndefined();
  });

  it('opens the page with its frontmatter description, the summary readers see under the title', () => {
    const fm =
      '---\ntitle: hugo.IsServer\ndescription: Reports whether the built-in development server is running.\n---\n';
    const lead = 'Reports whether the built-in development server is running.';
    // Before the first heading, as the first paragraph of the text there.
    expect(chunkMarkdown(`${fm}\nSome text.\n\n## Examples\n\nx\n`).sections.map((s) => [s.headings, s.text])).toEqual([
      [['hugo.IsServer'], `${lead}\n\nSome text.\n\n`],
      [['hugo.IsServer', 'Examples'], '## Examples\n\nx\n'],
    ]);
    // Under a leading H1; as a section of its own before a page that opens with a subheading.
    expect(chunkMarkdown(`${fm}# Server\nbody\n`).sections[0]!.text).toBe(`\n# Server\n\n${lead}\n\nbody\n`);
    const sub = chunkMarkdown(`${fm}## Usage\n\nx\n`).sections;
    expect(sub.map((s) => [s.headings, s.text, s.role])).toEqual([
      [['hugo.IsServer'], `${lead}\n\n`, 'content'],
      [['hugo.IsServer', 'Usage'], '\n## Usage\n\nx\n', 'content'],
    ]);
    expect(chunkMarkdown('---\ndescription: [unclosed\n---\n# A\nx\n').sections[0]!.text).toBe('\n# A\nx\n');
  });

  it('keeps frontmatter out of the sections', () => {
    const doc = chunkMarkdown('---\ntitle: X\ntags: [a]\n---\n# X\nbody\n');
    expect(doc.sections.map((s) => s.text).join('')).not.toContain('tags:');
  });

  it('handles CRLF line endings', () => {
    const doc = chunkMarkdown('---\r\ntitle: Win\r\n---\r\n# A\r\none\r\n## B\r\ntwo\r\n');
    expect(doc.title).toBe('Win');
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual(['A', 'B']);
  });

  it('makes a file with no heading one section, and an empty file none', () => {
    expect(chunkMarkdown('just text\n\nmore\n').sections).toEqual([
      { headings: [], text: 'just text\n\nmore\n', role: 'content' },
    ]);
    expect(chunkMarkdown('').sections).toEqual([]);
    expect(chunkMarkdown('  \n\n').sections).toEqual([]);
  });

  it('keeps a heading with no body as a section', () => {
    const doc = chunkMarkdown('# A\n## Empty\n## Full\ntext\n');
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual(['A', 'Empty', 'Full']);
  });

  it('splits a huge section at block boundaries and never inside a code block or table', () => {
    const para = (i: number) => `Paragraph ${i} ` + 'word '.repeat(20);
    const code = '```\n' + 'code line\n'.repeat(40) + '```';
    const table = '| a | b |\n|---|---|\n' + '| x | y |\n'.repeat(30);
    const source = `# Big\n\n${para(1)}\n\n${code}\n\n${para(2)}\n\n${table}\n${para(3)}\n`;
    const doc = chunkMarkdown(source, small);
    expect(doc.sections.length).toBeGreaterThan(2);
    expect(doc.sections.every((s) => s.headings.join() === 'Big')).toBe(true);
    expect(doc.sections.some((s) => s.text.includes(code))).toBe(true);
    expect(doc.sections.some((s) => s.text.includes(table.trim()))).toBe(true);
    expect(doc.sections.map((s) => s.text).join('')).toBe(source);
  });

  it('splits an over-long list between items', () => {
    const items = Array.from({ length: 30 }, (_, i) => `- item ${i} ` + 'x'.repeat(20)).join('\n');
    const doc = chunkMarkdown(`# L\n\n${items}\n`, small);
    expect(doc.sections.length).toBeGreaterThan(2);
    for (const s of doc.sections.slice(1)) expect(s.text.startsWith('- item')).toBe(true);
  });

  it('keeps non-ASCII text intact', () => {
    const source = '# Überblick 概要\n\nGeschenkkarten — ギフトカード 🎁\n\n## Émission\n\ncrédit\n';
    const doc = chunkMarkdown(source);
    expect(doc.title).toBe('Überblick 概要');
    expect(doc.sections.map((s) => s.text).join('')).toBe(source);
    expect(doc.sections[1]!.headings).toEqual(['Überblick 概要', 'Émission']);
  });

  it('treats an empty frontmatter block as frontmatter, not as body', () => {
    expect(chunkMarkdown('---\n---').sections).toEqual([]);
    expect(chunkMarkdown('---\r\n---\r\nbody text').sections.map((s) => s.text.trim())).toEqual(['body text']);
  });

  it('puts every character of the cleaned body in exactly one section, in order, and bounds every section (property)', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '# H1',
        '## H2',
        '### H3',
        '```',
        '~~~',
        '| a | b |',
        '|---|---|',
        '- item',
        '> quote',
        '<div>',
        '',
        '---',
        'Title\n===',
      ),
      fc.string({ maxLength: 40 }),
    );
    // A split code block gains fence lines and a split table its header again; apart from
    // lines like those, the sections are the body verbatim. (Lines stay shorter than a part,
    // so no line is cut.)
    const repeatable = /^ {0,3}(`{3,}|~{3,}|\|)/;
    const content = (text: string) =>
      text
        .split(/\r?\n/)
        .filter((l) => !repeatable.test(l))
        .join('')
        .replace(/\s+/g, '');
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 80 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 60, max: 400 }),
        (lines, eol, max) => {
          const written = lines.join(eol);
          const doc = chunkMarkdown(written, { maxSectionChars: max });
          // What is chunked is the page as readers see it (an HTML `<div>` line shows nothing).
          const source = cleanDialects(written, parseMarkdown).text;
          const joined = doc.sections.map((s) => s.text).join('');
          // Whitespace-only bodies make no section; otherwise the sections are the body verbatim.
          if (body(source).trim() === '') expect(doc.sections).toEqual([]);
          else if (source.length <= BLOCK_SPLIT_FACTOR * max) expect(joined.trim()).toBe(body(source).trim());
          else expect(content(joined)).toBe(content(body(source)));
          for (const s of doc.sections)
            expect(s.text.length).toBeLessThanOrEqual(BLOCK_SPLIT_FACTOR * max + MAX_SPLIT_OVERSHOOT);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts the rest of a file after an unclosed code fence into valid fenced blocks of bounded size', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `const value${i} = ${i};\n`);
    const doc = chunkMarkdown(`# Code\n\nIntro.\n\n\`\`\`js\n${lines.join('')}`, small);
    expect(doc.sections.length).toBeGreaterThan(100);
    const code = doc.sections.slice(1).map((s) => {
      expect(s.text.length).toBeLessThanOrEqual(small.maxSectionChars + MAX_SPLIT_OVERSHOOT);
      const tree = parseMarkdown(s.text);
      // Each part alone is exactly one closed fenced block that keeps the language.
      expect(tree.children.map((n) => n.type)).toEqual(['code']);
      expect(s.text.startsWith('```js\n') && s.text.endsWith('```\n')).toBe(true);
      return (tree.children[0] as { lang: string; value: string }).value + '\n';
    });
    expect(code.join('')).toBe(lines.join(''));
  });

  it('keeps a code block up to the block factor whole, and cuts a longer one at line ends with its own fence', () => {
    const block = (n: number) => '~~~~ yaml\n' + 'key: value\n'.repeat(n) + '~~~~\n';
    const whole = chunkMarkdown(`# A\n\n${block(60)}`, small);
    expect(whole.sections.map((s) => s.text)).toEqual(['# A\n\n', block(60)]);
    const cut = chunkMarkdown(`# A\n\n${block(300)}\nAfter.\n`, small);
    expect(cut.sections.length).toBeGreaterThan(10);
    for (const s of cut.sections.slice(1, -1)) expect(s.text).toMatch(/^~~~~ yaml\n(key: value\n)+~~~~\n/);
    expect(cut.sections.at(-1)!.text).toContain('After.');
  });

  it('cuts a giant table into tables that repeat the header', () => {
    const table =
      '| name | value |\n|---|---|\n' + Array.from({ length: 400 }, (_, i) => `| row${i} | ${i} |\n`).join('');
    const doc = chunkMarkdown(`# T\n\n${table}`, small);
    const parts = doc.sections.filter((s) => s.text.includes('| row'));
    expect(parts.length).toBeGreaterThan(10);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(small.maxSectionChars);
      expect(parseMarkdown(part.text.replace(/^# T\n\n/, '')).children.map((n) => n.type)).toEqual(['table']);
    }
  });

  it('cuts a single giant line (no blocks to cut between) near spaces, losing nothing', () => {
    const source = '# L\n\n' + 'word '.repeat(20_000) + 'x'.repeat(5_000) + '\n';
    const doc = chunkMarkdown(source, small);
    expect(doc.sections.map((s) => s.text).join('')).toBe(source);
    for (const s of doc.sections) expect(s.text.length).toBeLessThanOrEqual(small.maxSectionChars);
  });

  it('keeps headings and titles to one line of bounded length', () => {
    const long = 'Heading '.repeat(1000);
    const doc = chunkMarkdown(`---\ntitle: "Fake\\n\\nTitle: injected\\u0007"\n---\n# ${long}\n\n## Child\n\ntext\n`);
    expect(doc.title).toBe('Fake Title: injected');
    expect(doc.sections[1]!.headings[0]!.length).toBe(MAX_HEADING_CHARS);
    expect(doc.sections[1]!.headings[0]!.endsWith('…')).toBe(true);
  });
});
