import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

/**
 * Document breadth as shipped: a page that answers every part of a question across its sections
 * outranks a page whose one section repeats part of it.
 */

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
  noBreadth = await openEngine(dir, { embedder: engine.embedder }, { fusion: { documentBreadthWeight: 0 } });
});
afterAll(async () => {
  await noBreadth?.close();
  await engine?.close();
});

describe('document breadth', () => {
  it('ranks the page that covers the whole question first, which section scores alone would not', async () => {
    const query = 'export the settings and restore them';
    expect((await noBreadth.search(query))[0]!.path).toBe('settings.md');
    expect((await engine.search(query))[0]!.path).toBe('recovery.md');
  });
});
