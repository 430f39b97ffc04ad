import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../indexer/chunk.js';

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
