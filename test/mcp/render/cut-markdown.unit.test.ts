import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMarkdown } from '../../../src/mcp/render/cut-markdown.js';

describe('cutMarkdown', () => {
  it('leaves text that fits alone, and cuts the rest at a line break in the second half of the room', () => {
    expect(cutMarkdown('short\ntext', 100)).toEqual({ text: 'short\ntext', omitted: 0 });
    const text = `${'a'.repeat(60)}\n${'b'.repeat(30)}\n${'c'.repeat(30)}`;
    expect(cutMarkdown(text, 100)).toEqual({ text: `${'a'.repeat(60)}\n${'b'.repeat(30)}`, omitted: 31 });
  });

  it('closes a fence it cut through with the marker and indentation that opened it', () => {
    const body = 'x = 1\n'.repeat(40);
    expect(cutMarkdown(`Intro\n\n\`\`\`js\n${body}\`\`\`\n`, 120).text).toMatch(/\nx = 1\n```$/);
    expect(cutMarkdown(`Intro\n\n~~~~\n${body}~~~~\n`, 120).text).toMatch(/\nx = 1\n~~~~$/);
    // Inside a list item the fence is indented; closing it at the margin would end the item.
    expect(cutMarkdown(`- step\n\n   \`\`\`sh\n${body}   \`\`\`\n`, 120).text).toMatch(/\nx = 1\n {3}```$/);
  });

  it('knows a closed fence, and that a fence line with an info string does not close one', () => {
    const closed = `\`\`\`\ncode\n\`\`\`\n\n${'prose line\n'.repeat(20)}`;
    expect(cutMarkdown(closed, 100).text).not.toMatch(/```$/);
    // Three backticks do not close a four-backtick fence, nor does "```js" close "```".
    const nested = `\`\`\`\`md\n\`\`\`js\nlet a\n\`\`\`\n${'more\n'.repeat(30)}`;
    expect(cutMarkdown(nested, 60).text).toMatch(/\n````$/);
    const infoLine = `\`\`\`\nfirst\n\`\`\`js\n${'more\n'.repeat(30)}`;
    expect(cutMarkdown(infoLine, 60).text).toMatch(/\n```$/);
  });

  it('never splits a surrogate pair', () => {
    const { text, omitted } = cutMarkdown(`${'a'.repeat(9)}😀${'b'.repeat(20)}`, 10);
    expect(text).toBe('a'.repeat(9));
    expect(omitted).toBe(22);
  });

  it('for any text: a prefix of it (plus a closing fence line), well-formed, and counts what it left out', () => {
    const unit = fc.constantFrom('a', ' ', '\n', '`', '~', '😀', 'é');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const { text: cut, omitted } = cutMarkdown(text, max);
        const kept = text.length - omitted;
        expect(kept).toBeLessThanOrEqual(max);
        expect(cut.startsWith(text.slice(0, kept))).toBe(true);
        expect(cut.slice(kept)).toMatch(/^(\n[ \t]*(`{3,}|~{3,}))?$/);
        expect(/\p{Cs}/u.test(cut)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
