import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { Candidates, fuseSections } from '../../src/search/fuse.js';
import { rankDocuments } from './rank-documents.js';
import { parentSections } from '../../src/index/section-parents.js';
import { creditParents, type ParentCredit } from '../../src/search/parent-credit.js';
import { parseQuery } from '../../src/search/query.js';
import { fixtureIndex } from '../helpers/index-fixture.js';

/** A subsection takes part of its parent section's score in a question, not in a keyword query. */

describe('parentSections', () => {
  it("finds each section's nearest enclosing section within its page", () => {
    const headings = [
      ['Page'],
      ['Page', 'A'],
      ['Page', 'A', 'A1'],
      ['Page', 'A', 'A2'],
      ['Page', 'B'],
      ['Other'],
      ['Other', 'C'],
      [],
      ['Third', 'D'],
    ];
    const sectionDoc = Int32Array.from([0, 0, 0, 0, 0, 1, 1, 2, 2]);
    expect(Array.from(parentSections(headings, sectionDoc))).toEqual([-1, 0, 1, 1, 0, -1, 5, -1, 7]);
  });
});

describe('creditParents', () => {
  // Two pages. Page 0: an introduction (section 0) that matches and a subsection (1) under it;
  // page 1: a lone section (2) that scores a little higher than the subsection, under a parent
  // (3 is its child, not its parent) that does not match.
  const parentOf = Int32Array.from([-1, 0, -1, 2]);
  const docOf = (s: number) => (s < 2 ? 0 : 1);
  const ranked = (credit: ParentCredit, question: boolean) => {
    const c = Candidates.of([
      { section: 0, lexical: 8, coverage: 0.4, cosine: 0, matched: 1 },
      { section: 1, lexical: 9.5, coverage: 0.6, cosine: 0, matched: 2 },
      { section: 2, lexical: 10, coverage: 0.6, cosine: 0, matched: 2 },
    ]);
    fuseSections(c, 0);
    const slotOf = new Int32Array(4);
    for (let i = 0; i < c.count; i++) slotOf[c.section[i]!] = i + 1;
    creditParents(c, slotOf, credit, question);
    return rankDocuments(c, docOf, 0, 2).map((h) => [h.doc, h.best.section]);
  };
  const shipped: ParentCredit = { weight: 0.1, parentOf };

  it('puts the subsection whose introduction also matches first, in a question', () => {
    expect(ranked(shipped, true)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(ranked({ ...shipped, weight: 0 }, true)).toEqual([
      [1, 2],
      [0, 1],
    ]);
  });

  it('leaves a keyword query alone', () => {
    expect(ranked(shipped, false)[0]).toEqual([1, 2]);
  });
});

describe('a question is six terms or more', () => {
  it('is told apart from a keyword query', () => {
    expect(parseQuery('mock class constructor').question).toBe(false);
    expect(parseQuery('swap out one function of a module with a fake in a test').question).toBe(true);
    expect(parseQuery('make argo put things back', false).question).toBe(false);
  });
});

describe('the engine', () => {
  const GUIDE =
    '# Mocking modules\n\nReplace a module with a fake in a test with `vi.mock`, or keep its real exports.\n\n' +
    '## Partial mocks\n\nKeep the real exports and fake only one function: spread `importActual` into the factory.\n\n' +
    '# Unrelated\n\nNothing here.\n';
  let engine: LoadedEngine;
  let plain: LoadedEngine;
  beforeAll(async () => {
    const dir = await fixtureIndex({
      'docs/guide.md': GUIDE,
      'docs/other.md': '# Other\n\nA page about fonts and colours.\n',
    });
    engine = await openEngine(dir);
    plain = await openEngine(dir, { embedder: engine.embedder }, { parentCredit: 0 });
  });
  afterAll(async () => {
    await plain?.close();
    await engine?.close();
  });

  it("gives a subsection its parent's credit in a question, and not for keywords", async () => {
    const question = 'fake only one function of a module in a test and keep the real exports';
    const [withCredit] = await engine.search(question);
    const [without] = await plain.search(question);
    expect(withCredit!.sections.find((s) => s.isBest)!.headings.at(-1)).toBe('Partial mocks');
    expect(withCredit!.score).toBeGreaterThan(without!.score);
    const keywords = 'partial mocks importActual';
    expect((await engine.search(keywords))[0]!.score).toBe((await plain.search(keywords))[0]!.score);
  });
});
