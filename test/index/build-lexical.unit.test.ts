import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLexicalData, updateLexicalData } from '../../src/index/build-lexical.js';
import type { FieldTokens } from '../../src/index/lexical-data.js';

/** updateLexicalData must give exactly what buildLexicalData gives for the edited list of sections. */

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'Zeta', 'é', 'a-b', 'x');
const section: fc.Arbitrary<FieldTokens> = fc.record({
  title: fc.array(word, { maxLength: 3 }),
  headings: fc.array(word, { maxLength: 4 }),
  body: fc.array(word, { maxLength: 12 }),
});
/** An edit of the section list: each old section kept or dropped, new ones inserted between them. */
const edit = fc.record({
  before: fc.array(section, { maxLength: 12 }),
  keep: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  inserts: fc.array(fc.array(section, { maxLength: 2 }), { minLength: 13, maxLength: 13 }),
});

describe('updateLexicalData', () => {
  it('equals a build from scratch of the edited sections', () => {
    fc.assert(
      fc.property(edit, ({ before, keep, inserts }) => {
        const after: FieldTokens[] = [];
        const oldOf: number[] = [];
        const fresh: FieldTokens[] = [];
        const add = (tokens: FieldTokens) => {
          after.push(tokens);
          oldOf.push(-1);
          fresh.push(tokens);
        };
        before.forEach((tokens, i) => {
          inserts[i]!.forEach(add);
          if (keep[i]) {
            after.push(tokens);
            oldOf.push(i);
          }
        });
        inserts[before.length]!.forEach(add);
        const updated = updateLexicalData(buildLexicalData(before), Int32Array.from(oldOf), fresh);
        expect(updated).toEqual(buildLexicalData(after));
      }),
      { numRuns: 300 },
    );
  });

  it('declines kept sections that changed order', () => {
    const [a, b] = [
      { title: ['a'], headings: [], body: [] },
      { title: ['b'], headings: [], body: [] },
    ];
    expect(updateLexicalData(buildLexicalData([a, b]), Int32Array.of(1, 0), [])).toBeUndefined();
  });
});
