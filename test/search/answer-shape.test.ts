import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTool } from '../../src/mcp/tools/describe.js';
import { covered } from '../../src/search/coverage.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../../src/search/relevance.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

/** What the engine hands the renderer: no results for made-up words, a best section that answers, and what it covers. */

const RECIPES = {
  'cooking/bread.md':
    '# Bread\n\nBaking bread at home.\n\n## Proofing\n\n### Proofing temperature\n\nLet the dough rise at 26 degrees until it doubles.\n\n' +
    '### Proofing time\n\nAbout two hours; `proofTimer` rings when done.\n\n## Baking\n\nBake at 230 degrees for forty minutes.\n',
  'cooking/cakes/sponge.md':
    '# Sponge cake\n\n## Whisking\n\nWhisk eggs and sugar until pale; `whiskSpeed` sets the mixer.\n',
};
const LINKS = {
  'ops/rotation.md':
    '# Key rotation\n\nKeys are rotated every ninety days by the scheduler, which keeps the previous key valid for a week.\n\n' +
    '## See also\n\n- [Webhook signature verification](verify.md)\n- [Signature keys and rotation](keys.md)\n- [Webhook signature errors](errors.md)\n',
};
const MANUAL = {
  'garage/engine/oil.md': '# Engine oil\n\n## oil.viscosity\n\nUse 5W-30 oil. Change it every 10,000 km.\n',
  'garage/tyres.md': '# Tyres\n\n## tyre_pressure\n\nKeep the tyre pressure at 2.2 bar.\n',
};

const SPLIT = {
  'car/engine/oil.md': '# Engine oil\n\n## Oil viscosity\n\nUse 5W-30 oil for the engine. Change it every 10,000 km.\n',
  'car/tyres.md': '# Tyres\n\n## Tyre pressure\n\nKeep the tyre pressure at 2.2 bar for the road.\n',
};

let recipes: LoadedEngine;
let manual: LoadedEngine;
beforeAll(async () => {
  recipes = await openEngine(await fixtureIndex(RECIPES));
  manual = await openEngine(await fixtureIndex(MANUAL), { embedder: recipes.embedder });
});
afterAll(async () => {
  await manual?.close();
  await recipes?.close();
});

describe('what a search answers', () => {
  it('returns no results for a made-up word, not the pages its model neighbours happen to match', async () => {
    expect(await recipes.search('nonexistentword')).toEqual([]);
    expect(await recipes.search('zzxqvv florbnak')).toEqual([]);
    expect((await recipes.search('florbnak proofing')).length).toBeGreaterThan(0);
  });

  it('centres the window on the subsection that answers, not on a heading with nothing under it', async () => {
    const [top] = await recipes.search('proofing temperature');
    expect(top!.path).toBe('bread.md');
    const best = top!.sections.find((s) => s.isBest)!;
    expect(best.headings.at(-1)).toBe('Proofing temperature');
  });

  it('never makes a link list the best match, even one that names every word of the query', async () => {
    const links = await openEngine(await fixtureIndex(LINKS), { embedder: recipes.embedder });
    try {
      const [top] = await links.search('webhook signature rotation');
      const best = top!.sections.find((s) => s.isBest)!;
      expect(best.headings.at(-1)).toBe('Key rotation');
      expect(top!.sections.find((s) => s.headings.at(-1) === 'See also')!.role).toBe('navigation');
    } finally {
      await links.close();
    }
  });

  it('is less sure of a query whose words the corpus lacks: the share missing lowers every confidence', async () => {
    const [plain] = await recipes.search('proofing temperature');
    const [foreign] = await recipes.search('proofing temperature kubernetes');
    expect(foreign!.path).toBe(plain!.path);
    expect(foreign!.confidence).toBeLessThan(plain!.confidence);
    const [own] = await recipes.search('proofing temperature bread');
    expect(own!.confidence).toBeGreaterThan(foreign!.confidence);
    // Half the query's weight in a word no page has: the docs do not cover it, though a page matches the rest.
    const half = await recipes.search('proofing kubernetes');
    expect(half[0]!.path).toBe('bread.md');
    expect(covered(half)).toBe(false);
    expect(covered(await recipes.search('proofing dough'))).toBe(true);
  });

  it("does not count a hyphenated compound of the docs' own words as a word they lack", async () => {
    // "dough-proofing" is written nowhere, "dough" and "proofing" are: no share of the question is missing from the docs.
    const [hyphenated] = await recipes.search('dough-proofing temperature');
    expect(hyphenated!.path).toBe('bread.md');
    expect(covered([hyphenated!])).toBe(true);
    // A compound with a part no page has is missing, as before.
    const [foreign] = await recipes.search('dough-kubernetes temperature');
    expect(covered([foreign!])).toBe(false);
  });

  it('does not count a number run into its unit as a word the docs lack when they have both', async () => {
    // "26degrees" is written nowhere, "26" and "degrees" are (the index is asked: neither is a term of the query).
    const [unit] = await recipes.search('proofing 26degrees');
    expect(unit!.path).toBe('bread.md');
    expect(covered([unit!])).toBe(true);
    const [foreign] = await recipes.search('proofing 26kelvin');
    expect(covered([foreign!])).toBe(false);
  });

  it('gives no star to a page whose best section holds only half the question, however sure its confidence', async () => {
    const split = await openEngine(await fixtureIndex(SPLIT), { embedder: recipes.embedder });
    try {
      // Each page holds one of the two words: neither answers. The confidence alone is a "Relevant" one.
      const results = await split.search('pressure viscosity');
      expect(results[0]!.confidence).toBeGreaterThanOrEqual(DEFAULT_RELEVANCE_THRESHOLDS.relevant);
      expect(results.map((r) => r.relevance)).toEqual(results.map(() => ({ label: 'Moderate match', stars: 0 })));
      const [whole] = await split.search('tyre pressure');
      expect(whole!.relevance).toEqual({ label: 'Excellent match', stars: 3 });
    } finally {
      await split.close();
    }
  });

  it('tells each window section how much of the query it matches', async () => {
    const [top] = await recipes.search('proofing temperature');
    const bySection = new Map(top!.sections.map((s) => [s.headings.at(-1), s.match]));
    expect(bySection.get('Proofing temperature')).toBeCloseTo(1, 5);
    expect(bySection.get('Baking')).toBe(0);
    expect(bySection.get('Proofing time')!).toBeGreaterThan(0);
    expect(bySection.get('Proofing time')!).toBeLessThan(1);
  });
});

describe('the tool description', () => {
  it('is made from the corpus served: its knowledge base, areas, topics and identifiers', () => {
    const cooking = describeTool(recipes, 5);
    const garage = describeTool(manual, 5);
    expect(cooking).toContain('"cooking" (2 pages; sections: cakes)');
    expect(cooking).toContain('"Bread"');
    expect(cooking).toMatch(/`proofTimer`|`whiskSpeed`/);
    expect(garage).toContain('"garage" (2 pages; sections: engine)');
    expect(garage).toContain('`oil.viscosity`');
    expect(garage).toContain('`tyre_pressure`');
    expect(garage).not.toContain('cooking');
    for (const text of [cooking, garage]) {
      expect(text).toContain('Specific technical terms with context work best');
      expect(text).toMatch(/search again with other words/);
      expect(text).not.toMatch(/webhook|instanceId/i);
    }
  });
});
