import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closingLine } from '../../../src/mcp/render/cut-markdown.js';
import { pageParts } from '../../../src/mcp/tools/page-parts.js';
import { pagePartUri, pageUri, parsePageUri } from '../../../src/mcp/tools/page-uri.js';

/** A long page cut into parts for resources/read: pure, so tested on literal text. */

/** The lines a part adds: a fence reopened at its start, or closed at its end. */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})$/;

describe('pageParts', () => {
  it('keeps a page that fits whole, and cuts a long one at line breaks, every part within the room', () => {
    expect(pageParts('# Short\n\nText.', 100)).toEqual(['# Short\n\nText.']);
    const page = Array.from({ length: 30 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const parts = pageParts(page, 100);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(100);
    // Cut at line breaks: every line is whole in exactly one part, in order.
    expect(parts.join('\n')).toBe(page);
  });

  it('closes a fence it cuts through and opens it again at the start of the next part', () => {
    const page = `Intro\n\n~~~~\n${'x = 1\n'.repeat(60)}~~~~\n\nAfter.`;
    const parts = pageParts(page, 120);
    for (const part of parts) expect(closingLine(part), part).toBeUndefined();
    expect(parts[1]).toMatch(/^~~~~\nx = 1\n/);
    expect(parts.at(-1)).toMatch(/After\.$/);
  });

  it('for any text: parts within the room (plus a fence line), and no other character lost, repeated or moved', () => {
    const unit = fc.constantFrom('a', ' ', '\n', '`', '~', '😀', 'é');
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 300, maxLength: 2000 }),
        fc.integer({ min: 40, max: 200 }),
        (text, room) => {
          const parts = pageParts(text, room);
          parts.forEach((part, i) => {
            const lines = part.split('\n');
            const last = lines.length - 1;
            const kept = lines.filter((line, at) => {
              const added = FENCE_LINE.test(line) && ((at === 0 && i > 0) || (at === last && i < parts.length - 1));
              return !added;
            });
            // A part is the room at most, plus the fence line that closes it.
            expect(kept.join('\n').length).toBeLessThanOrEqual(room);
            expect(/\p{Cs}/u.test(part)).toBe(false);
          });
          // What parts add (line breaks, fence lines) is dropped from both sides; the rest must match exactly.
          const strip = (s: string) => s.replace(/[ \t`~\n]/g, '');
          expect(strip(parts.join(''))).toBe(strip(text));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('page part URIs', () => {
  it('name a part with ?part=<n>, and anything else is not a page URI', () => {
    const uri = pagePartUri('argo cd', 'docs/a?b.md', 3);
    expect(uri).toBe(`${pageUri('argo cd', 'docs/a?b.md')}?part=3`);
    expect(parsePageUri(uri)).toEqual({ source: 'argo cd', path: 'docs/a?b.md', part: 3 });
    expect(parsePageUri(pageUri('kb', 'a.md'))).toEqual({ source: 'kb', path: 'a.md' });
    for (const bad of ['svc-docs://kb/a.md?part=0', 'svc-docs://kb/a.md?part=x', 'svc-docs://kb/a.md?page=2'])
      expect(parsePageUri(bad), bad).toBeUndefined();
  });
});
