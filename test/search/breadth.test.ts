import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

/**
 * Document breadth as shipped: a page that answers every part of a question across its sections
 * outranks a page whose one section repeats part of it.
 */

// A release-notes page mentions everything somewhere; a short page about retries holds the same
// words because it is about them.
const notes = Array.from(
  { length: 40 },
  (_, i) =>
    `## ${i === 3 ? 'Webhook retry' : `Release 1.${i}`}\n\n${
      i === 3
        ? 'A webhook retry now waits longer between each retry of the webhook.'
        : i === 20
          ? 'Fixed failed deliveries of exports.'
          : `Improved the dashboard chart number ${i}.`
    }\n`,
).join('\n');
const LONG_AND_SHORT = {
  'kb/release-notes.md': `# Release notes\n\n${notes}`,
  'kb/retries.md':
    '# Outbound calls\n\n## Schedule\n\nEach webhook retry follows a schedule.\n\n## Failed deliveries\n\nFailed deliveries are listed.\n',
};

const CORPUS = {
  'kb/recovery.md':
    '# Disaster recovery\n\nKeep a copy of everything.\n\n## Export\n\nExport the settings to a file.\n\n## Restore\n\nRestore the file into a fresh install.\n',
  'kb/settings.md':
    '# Settings reference\n\n## Export settings\n\nExport settings, export settings often: settings export is how settings are exported.\n',
};

let engine: LoadedEngine;
let noBreadth: LoadedEngine;
beforeAll(async () => {
  const dir = await fixtureIndex(CORPUS);
  engine = await openEngine(dir);
  noBreadth = await openEngine(dir, { embedder: engine.embedder, fusion: { documentBreadthWeight: 0 } });
});
afterAll(async () => {
  await noBreadth?.close();
  await engine?.close();
});

describe('document breadth', () => {
  it("counts a long page's scattered matches only as far as its length does not explain them", async () => {
    const dir = await fixtureIndex(LONG_AND_SHORT);
    const byChance = await openEngine(dir, { embedder: engine.embedder });
    const plain = await openEngine(dir, { embedder: engine.embedder, breadthByChance: false });
    try {
      const query = 'webhook retry for failed deliveries';
      expect((await plain.search(query))[0]!.path).toBe('release-notes.md');
      expect((await byChance.search(query))[0]!.path).toBe('retries.md');
    } finally {
      await plain.close();
      await byChance.close();
    }
  });

  it('ranks the page that covers the whole question first, which section scores alone would not', async () => {
    const query = 'export the settings and restore them';
    expect((await noBreadth.search(query))[0]!.path).toBe('settings.md');
    expect((await engine.search(query))[0]!.path).toBe('recovery.md');
  });
});
