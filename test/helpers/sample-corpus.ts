/**
 * A small two-knowledge-base corpus that engine and server tests share: pages with known
 * answers, identifiers, and one 61-section page for window bounds (its best match for
 * "zanzibar" is section "Topic 40").
 */
const longDoc =
  '# Long Reference\n\nIntro.\n' +
  Array.from(
    { length: 60 },
    (_, i) => `## Topic ${i}\n\nDetails for topic number ${i}.${i === 40 ? ' The zanzibar setting lives here.' : ''}\n`,
  ).join('\n');

export const SAMPLE_CORPUS: Record<string, string> = {
  'platform/webhooks.md':
    '---\ntitle: Webhooks guide\n---\n# Webhooks\n\nThe service sends signed notifications.\n\n## Verify the signature\n\nVerify the JWT with the public key.\n\n## Idempotency\n\nWhen an event id was already processed, skip it and return 200.\n\n## Ordering\n\nStore the last entityEventSequence per entityId.\n',
  'platform/tokens.md':
    '# OAuth tokens\n\nSend `client_credentials` with the app secret. The access token is valid for about 4 hours.\n',
  'platform/triggers.md': '# Custom triggers\n\nReport an event with the `svc-account-id` header and your API key.\n',
  'platform/long.md': longDoc,
  'guide/connect.md': '# Connect your IDE\n\nAdd an mcpServers entry with the url and type http.\n',
};
