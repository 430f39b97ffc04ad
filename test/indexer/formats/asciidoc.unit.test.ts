import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../../indexer/chunk/chunk.js';
import { asciidocToMarkdown } from '../../../indexer/formats/asciidoc.js';
import { checkAttributeExpansion, MAX_ATTRIBUTE_CHARS } from '../../../indexer/formats/asciidoc-attributes.js';
import { FormatError } from '../../../indexer/formats/converted.js';

const GUIDE = `= Upgrade Guide
:toc: left

Read this before moving to 3.0.

== Back up the journal

Copy the journal folder aside.

include::/etc/passwd[]

[source,python]
----
shutil.copytree(journal, backup)
----

WARNING: Older clients cannot read a 3.0 journal.

=== Settings that moved

|===
| Old | New

| \`interval\` | \`sync_interval_seconds\`
|===
`;

describe('asciidocToMarkdown', () => {
  it('keeps the title, section levels, code languages, tables and admonitions, with no table of contents', () => {
    expect(asciidocToMarkdown(GUIDE)).toEqual({
      title: 'Upgrade Guide',
      markdown:
        '# Upgrade Guide\n\nRead this before moving to 3.0.\n\n## Back up the journal\n\nCopy the journal folder aside.\n\n' +
        '[/etc/passwd](/etc/passwd)\n\n```python\nshutil.copytree(journal, backup)\n```\n\n' +
        '> **Warning:**\n>\n> Older clients cannot read a 3.0 journal.\n\n### Settings that moved\n\n' +
        '| Old | New |\n| - | - |\n| `interval` | `sync_interval_seconds` |\n',
    });
    expect(chunkMarkdown(asciidocToMarkdown(GUIDE).markdown).sections.map((s) => s.headings)).toEqual([
      ['Upgrade Guide'],
      ['Upgrade Guide', 'Back up the journal'],
      ['Upgrade Guide', 'Back up the journal', 'Settings that moved'],
    ]);
  });

  it('reads no include: the secure mode leaves a link where the file would go', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-adoc-'));
    try {
      const secret = join(dir, 'secret.adoc');
      writeFileSync(secret, 'SECRET-INCLUDED-TEXT\n');
      expect(asciidocToMarkdown(`include::${secret}[]\n`).markdown).toBe(`[${secret}](${secret})\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no title for a document without one', () => {
    expect(asciidocToMarkdown('Just a paragraph.\n')).toEqual({ title: undefined, markdown: 'Just a paragraph.\n' });
  });

  it('refuses a page whose attribute references expand past 4 MiB, before converting it', () => {
    // Each entry is four of the one before, cut to 4,096 characters: 1,100 {a} make 4.5 MB.
    const page = `= T\n:h: ${'x'.repeat(60)}\n${[...'gfedcba'].map((c, i) => `:${c}: ${`{${'hgfedcb'[i]}}`.repeat(4)}\n`).join('')}\n${'{a}\n\n'.repeat(1100)}`;
    expect(() => asciidocToMarkdown(page)).toThrow(
      new FormatError(
        `its attribute references expand to over ${MAX_ATTRIBUTE_CHARS.toLocaleString('en-US')} characters; it is not converted`,
      ),
    );
  });

  it('counts a value as Asciidoctor cuts it, at 4,096 characters, whatever the page sets', () => {
    const page = `= T\n:max-attribute-value-size: 100000\n:a: ${'y'.repeat(5000)}\n\n${'{a}\n\n'.repeat(100)}`;
    // 4,096 for the entry, 100 × 4,097 for the references, and the rest of the lines: 414,000 or so.
    expect(() => checkAttributeExpansion(page, 420_000)).not.toThrow();
    expect(() => checkAttributeExpansion(page, 410_000)).toThrow(FormatError);
    expect(asciidocToMarkdown(page).markdown.split('y'.repeat(4096)).length - 1).toBe(100);
    expect(asciidocToMarkdown(page).markdown).not.toContain('y'.repeat(4097));
  });
});
