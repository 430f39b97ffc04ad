import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../../indexer/chunk/chunk.js';
import { asciidocToMarkdown } from '../../../indexer/formats/asciidoc.js';

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
});
