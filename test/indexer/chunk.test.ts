import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../indexer/chunk.js';

const small = { maxSectionChars: 200 };

/** Everything after the frontmatter, in order, exactly once. */
function body(source: string): string {
  // YAML frontmatter, empty (`---` right after `---`) or not, as remark-frontmatter reads it.
  const m = /^---\r?\n(?:[\s\S]*?\r?\n)??---(\r?\n|$)/.exec(source);
  return m ? source.slice(m[0].length - m[1]!.length) : source;
}

describe('chunkMarkdown', () => {
  it('makes one section per heading with the breadcrumb of enclosing headings', () => {
    const doc = chunkMarkdown('# Guide\nintro\n## Install\nsteps\n### Linux\napt\n## Use\nrun\n');
    expect(doc.title).toBe('Guide');
    expect(doc.sections.map((s) => s.headings)).toEqual([['Guide'], ['Guide', 'Install'], ['Guide', 'Install', 'Linux'], ['Guide', 'Use']]);
    expect(doc.sections[2]!.text).toBe('### Linux\napt\n');
  });

  it('does not take # lines inside code fences for headings', () => {
    const doc = chunkMarkdown('# A\n```bash\n# not a heading\nls\n```\n## B\nx\n');
    expect(doc.sections.map((s) => s.headings.at(-1))).toEqual(['A', 'B']);
    expect(doc.sections[0]!.text).toContain('# not a heading');
  });

  it('keeps tables and HTML blocks inside their section', () => {
    const doc = chunkMarkdown('# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>\n<h2>html heading</h2>\n</div>\n\n## Next\n');
    expect(doc.sections).toHaveLength(2);
    expect(doc.sections[0]!.text).toContain('| 1 | 2 |');
    expect(doc.sections[0]!.text).toContain('<h2>html heading</h2>');
  });

  it('takes the title from frontmatter first, then the first H1', () => {
    expect(chunkMarkdown('---\ntitle: From Front\n---\n# H1 Title\ntext\n').title).toBe('From Front');
    expect(chunkMarkdown('## Sub\n# Late H1\n').title).toBe('Late H1');
    expect(chunkMarkdown('no headings at all\n').title).toBeUndefined();
    expect(chunkMarkdown('---\ntitle: [unclosed\n---\n# Fallback\n').title).toBe('Fallback');
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
    expect(chunkMarkdown('just text\n\nmore\n').sections).toEqual([{ headings: [], text: 'just text\n\nmore\n' }]);
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

  it('puts every character of the body in exactly one section, in order (property)', () => {
    const line = fc.oneof(
      fc.constantFrom('# H1', '## H2', '### H3', '```', '~~~', '| a | b |', '|---|---|', '- item', '> quote', '<div>', '', '---', 'Title\n==='),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.integer({ min: 20, max: 400 }), (lines, eol, max) => {
        const source = lines.join(eol);
        const doc = chunkMarkdown(source, { maxSectionChars: max });
        const joined = doc.sections.map((s) => s.text).join('');
        // Whitespace-only bodies make no section; otherwise the sections are the body verbatim.
        if (body(source).trim() === '') expect(doc.sections).toEqual([]);
        else expect(joined.trim()).toBe(body(source).trim());
      }),
      { numRuns: 300 },
    );
  });
});
