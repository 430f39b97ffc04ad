import { describe, expect, it } from 'vitest';
import { pageUri, parsePageUri } from '../../../src/mcp/tools/page-uri.js';
import { findPage, InvalidCursorError, listPages, pageMarkdown, type PageIndex } from '../../../src/mcp/tools/pages.js';

/** Page URIs and the page listing: pure functions of the loaded index. */

function indexOf(count: number): PageIndex {
  return {
    documents: Array.from({ length: count }, (_, i) => ({
      kb: i % 2 ? 'guide' : 'platform',
      path: `dir/page ${i}.md`,
      title: `Page ${i}`,
      firstSection: 2 * i,
      sectionCount: 2,
    })),
    sections: Array.from({ length: 2 * count }, (_, i) => ({
      text: i % 2 ? `## Part ${i}\n\nBody ${i}.` : `# Page ${i / 2}`,
    })),
  };
}

describe('page URIs', () => {
  it('are stable, readable, and round-trip names with spaces, slashes and non-ASCII', () => {
    expect(pageUri('platform', 'webhooks.md')).toBe('svc-docs://platform/webhooks.md');
    for (const [kb, path] of [
      ['argo cd', 'docs/user guide/sync#1.md'],
      ['Ünïcode', 'a/ä?b.md'],
      ['kb', '100%.md'],
    ] as const) {
      const uri = pageUri(kb, path);
      expect(() => new URL(uri)).not.toThrow();
      expect(parsePageUri(uri)).toEqual({ source: kb, path });
    }
  });

  it('refuses URIs it did not make', () => {
    for (const uri of [
      'file:///etc/passwd',
      'svc-docs://',
      'svc-docs://kb',
      'svc-docs://kb/',
      'svc-docs://kb/a%2Fb.md',
      'svc-docs://kb/%E0%A4%A.md',
    ]) {
      expect(parsePageUri(uri), uri).toBeUndefined();
    }
  });
});

describe('page listing', () => {
  it('pages through every document with opaque cursors and no repeats', () => {
    const index = indexOf(250);
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const page = listPages(index, cursor);
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      calls++;
    } while (cursor !== undefined);
    expect(calls).toBe(3);
    expect(new Set(seen).size).toBe(250);
    expect(seen[0]).toBe(pageUri('platform', 'dir/page 0.md'));
  });

  it('refuses a cursor it did not issue', () => {
    expect(() => listPages(indexOf(3), 'bogus')).toThrow(InvalidCursorError);
  });

  it("finds a page by knowledge base and path, and gives its sections' Markdown in order", () => {
    const index = indexOf(3);
    const doc = findPage(index, 'guide', 'dir/page 1.md');
    expect(doc?.title).toBe('Page 1');
    expect(pageMarkdown(index, doc!)).toBe('# Page 1\n\n## Part 3\n\nBody 3.');
    expect(findPage(index, 'platform', 'dir/page 1.md')).toBeUndefined();
  });
});
