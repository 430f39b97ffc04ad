import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSearch } from '../../src/mcp/render/render.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { strongestOtherSections, type ExcerptFacts } from '../../src/search/excerpts.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

/**
 * A page that explains an option in its introduction and repeats it in an example twenty sections
 * below: ranking centres the window on the example; the introduction, out of the window's reach,
 * comes with the result as an excerpt and reaches the reader with the sections skipped named.
 */

const TOPICS = [
  'Queues hold messages in memory until a worker picks them up for processing.',
  'Workers pull messages from the queue and acknowledge each one when done.',
  'Dashboards show throughput, latency and the size of every queue over time.',
  'Alerts page the operator on call when latency stays high for ten minutes.',
  'Logs are kept for thirty days and can be searched by message identifier.',
  'Tenants are isolated from each other by separate queues and credentials.',
  'Credentials rotate every ninety days; old ones stay valid for a day after.',
  'Quotas cap the number of messages a tenant may publish in one minute.',
  'Backups of queue metadata are taken nightly and kept for two weeks.',
  'Regions replicate metadata so a tenant can fail over to another region.',
  'Maintenance windows are announced a week ahead on the status page.',
  'Pricing depends on the number of messages published and stored per month.',
  'Support answers tickets within one business day on the standard plan.',
  'Audit events record who changed a queue setting and when they did it.',
  'Scaling adds workers automatically when the queue grows past its threshold.',
  'Batching groups small messages together to reduce the cost per message.',
  'Compression shrinks large payloads before they are written to storage.',
  'Ordering is guaranteed within one partition key but not across keys.',
];

const DELIVERY =
  '# Delivery\n\n## Introduction\n\nThe `retryLimit` option sets how many times a failed delivery is retried before the ' +
  'message is dropped. Set `retryLimit` to 0 to turn retries off.\n\n' +
  TOPICS.map((t, i) => `## Topic ${i + 1}\n\n${t}\n\n`).join('') +
  '## Example\n\nAn example configuration:\n\n```yaml\nretryLimit: 5\n```\n\nThis example sets retryLimit to five.\n';

let indexDir: string;
let engine: LoadedEngine;
beforeAll(async () => {
  indexDir = await fixtureIndex({ 'ops/delivery.md': DELIVERY });
  engine = await openEngine(indexDir);
});
afterAll(async () => {
  await engine?.close();
});

describe("a page's other strongly matching sections", () => {
  it('come with a result, strongest first, and reach the reader as an excerpt when the budget narrows the window', async () => {
    const [top] = await engine.search('retryLimit example');
    expect(top!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('Example');
    // The introduction lies 19 sections above the best one: beyond the ±15 window.
    expect(top!.sections.some((s) => s.headings.at(-1) === 'Introduction')).toBe(false);
    expect(top!.excerpts?.[0]?.headings.at(-1)).toBe('Introduction');
    expect(top!.excerpts![0]!.text).toContain('how many times a failed delivery is retried');

    const { text, structured } = renderSearch('retryLimit example', [top!], { budgetChars: 1_200 });
    expect(text).toMatch(/----- section 2 \| Delivery > Introduction \(section 1 not shown\) -----/);
    expect(text).toContain('how many times a failed delivery is retried');
    expect(structured.results[0]!.sections.map((s) => s.position)).toContain(1);
  });

  it('are left out when the engine is asked for none', async () => {
    const none = await openEngine(indexDir, { embedder: engine.embedder }, { excerptCandidates: 0 });
    try {
      const [top] = await none.search('retryLimit example');
      expect(top!.excerpts).toBeUndefined();
      const { text } = renderSearch('retryLimit example', [top!], { budgetChars: 1_200 });
      expect(text).not.toContain('how many times a failed delivery is retried');
    } finally {
      await none.close();
    }
  });
});

describe('strongestOtherSections', () => {
  const facts = (match: number, score = 0, bodyTokens = 20): ExcerptFacts => ({ match, score, bodyTokens });

  it('orders by match, then the earlier section; the best section, short and non-matching ones are left out', () => {
    const page = [
      facts(1, 0.2),
      facts(0.5, 0.9),
      facts(1, 0.9),
      facts(1, 1, 3),
      facts(0),
      facts(0.5, 0.1),
      facts(1, 2),
    ];
    expect(strongestOtherSections(page, 6, 3)).toEqual([0, 2, 1]);
    expect(strongestOtherSections(page, 6, 10)).toEqual([0, 2, 1, 5]);
    expect(strongestOtherSections(page, 0, 2)).toEqual([2, 6]);
    expect(strongestOtherSections(page, 6, 0)).toEqual([]);
  });

  it('puts the earlier of two sections matching as much first, whatever their scores', () => {
    const page = [facts(1, 0.2), facts(1, 0.9), facts(0.5, 5)];
    expect(strongestOtherSections(page, 2, 2)).toEqual([0, 1]);
  });
});
