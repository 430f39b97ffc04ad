import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatedSentences } from '../../../bench/lib/repeats.js';
import { renderSearch } from '../../../src/mcp/render/render.js';
import { openEngine, type LoadedEngine } from '../../../src/search/engine.js';
import { fixtureIndex } from '../../helpers/index-fixture.js';

/** Each fact once per response, on a real index: pages that share a paragraph, as docs sites do. */

const SHARED =
  'Access tokens are valid for about four hours. Request a new one with the refresh grant before the old one expires.';
const TABS = 'Replace the placeholder with the merchant installation identifier from the install callback.';
const PAGES = {
  'api/tokens.md': `# Access tokens\n\n## Token lifetime\n\n${SHARED}\n\nTokens are issued per merchant installation.\n`,
  'api/wallets.md':
    `# Wallets query\n\n## Token lifetime for wallet queries\n\nA wallet query needs a fresh access token. See [Access tokens](tokens.md).\n\n${SHARED}\n\n` +
    `- The token is sent as a bearer token, never as the account key.\n- ${SHARED}\n\n## Identifiers\n\n${TABS}\n\n=== "curl"\n\n    ${TABS}\n`,
  'api/webhooks.md': `# Webhooks\n\n## Token lifetime and webhook retries\n\nWebhook deliveries do not use access tokens. See [Access tokens](../api/tokens.md).\n`,
};

let engine: LoadedEngine;
beforeAll(async () => {
  engine = await openEngine(await fixtureIndex(PAGES));
});
afterAll(async () => {
  await engine?.close();
});

describe('a response says each fact once', () => {
  it('shows a paragraph repeated on a later page once, marking where the reader saw it', async () => {
    const results = await engine.search('token lifetime access tokens valid');
    expect(results.map((r) => r.path).slice(0, 2)).toEqual(['tokens.md', 'wallets.md']);
    const { text, structured } = renderSearch('token lifetime access tokens valid', results, { budgetChars: 4_000 });
    expect(text.split('Access tokens are valid for about four hours').length - 1).toBe(1);
    expect(text).toContain('[… see result 1, section 2]');
    // What the later page adds is still there, the list keeps its item.
    expect(text).toContain('- The token is sent as a bearer token');
    expect(text).toContain('- [… see result 1, section 2]');
    expect(repeatedSentences(structured.results.flatMap((r) => r.sections.map((s) => s.text)))).toBe(0);
  });

  it('leaves a sentence the docs repeat inside one section as written', async () => {
    const results = await engine.search('merchant installation identifier placeholder');
    const { text } = renderSearch('merchant installation identifier placeholder', results, { budgetChars: 4_000 });
    expect(text.split(TABS).length - 1).toBe(2);
  });
});
