import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../indexer/chunk/chunk.js';

/** What each section is for: only content sections can answer; link lists and bare headings are context. */

const roles = (md: string) => chunkMarkdown(md).sections.map((s) => [s.headings.at(-1) ?? '', s.role]);

describe('section roles', () => {
  it('marks a See-also list, a link-only list and a bare heading, and keeps prose as content', () => {
    const md = [
      '# Webhooks',
      'Webhooks notify your endpoint when an event occurs.',
      '## Setup',
      '## Verify the signature',
      'Verify the JWT with the public key before trusting it.',
      '## See also',
      '- [Idempotency](idempotency.md)',
      '- [Ordering](ordering.md): per entity',
      '## Guides',
      'Related guides:',
      '',
      '* [Install flow](install.md)',
      '* [Tokens](tokens.md) (advanced)',
    ].join('\n');
    expect(roles(md)).toEqual([
      ['Webhooks', 'content'],
      ['Setup', 'empty'],
      ['Verify the signature', 'content'],
      ['See also', 'navigation'],
      ['Guides', 'navigation'],
    ]);
  });

  it('keeps a list whose items explain as content, and a See-also section with prose', () => {
    const md = [
      '# Options',
      '- [retry](retry.md): how many times a failed delivery is sent again before the platform gives up on it',
      '- [timeout](timeout.md)',
      '## See also',
      'The limits page lists every documented limit, including the token lifetime of about 4 hours.',
    ].join('\n');
    expect(roles(md)).toEqual([
      ['Options', 'content'],
      ['See also', 'content'],
    ]);
  });

  it('counts a section of only HTML comments or a rule as empty', () => {
    expect(roles('# A\n<!-- md:version 9.0 -->\n\n---\n# B\ntext here')).toEqual([
      ['A', 'empty'],
      ['B', 'content'],
    ]);
  });
});

describe('section roles on the corpora', () => {
  it('marks a section that only points elsewhere as navigation, and keeps a short definition with a link as content', () => {
    const md = [
      '---',
      'title: content dimension',
      '---',
      '',
      'See [dimension](/quick-reference/glossary/dimension/).',
      '',
      '## Concat',
      '',
      'See the [`resources.Concat`](/functions/resources/concat/) function.',
      '',
      '## Moved',
      '',
      '⚠️ This page has moved. See [New Page](../operator-manual/hooks.md)',
      '',
      '## collection',
      '',
      'A collection is an [array](g), [slice](g), or [map](g).',
    ].join('\n');
    expect(roles(md)).toEqual([
      ['content dimension', 'navigation'],
      ['Concat', 'navigation'],
      ['Moved', 'navigation'],
      ['collection', 'content'],
    ]);
  });

  it('marks boilerplate that cleaning empties (MDN specifications and compatibility macros), a SEE ALSO list and a table of spec links', () => {
    const md = [
      '# Sec-WebSocket-Accept',
      'The header is computed from the key.',
      '## Specifications',
      '{{Specifications}}',
      '## Browser compatibility',
      '{{Compat}}',
      '## SEE ALSO',
      '* [hugo](/commands/hugo/)\t - Build your project',
      '# Older page',
      'Text of the older page.',
      '## Specifications',
      '| Specification | Status |',
      '| --- | --- |',
      '| [RFC 6455](https://datatracker.ietf.org/doc/html/rfc6455#section-11.3.3) | Standard |',
    ].join('\n');
    expect(roles(md)).toEqual([
      ['Sec-WebSocket-Accept', 'content'],
      ['Specifications', 'empty'],
      ['Browser compatibility', 'empty'],
      ['SEE ALSO', 'navigation'],
      ['Older page', 'content'],
      ['Specifications', 'navigation'],
    ]);
  });
});
