import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchDocsInputSchema } from '../../src/mcp/tools/search-schema.js';
import { renderSearch } from '../../src/mcp/render/render.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { FILLER_WEIGHT, parseQuery } from '../../src/search/query.js';
import { tokenize } from '../../src/index/tokenize.js';
import { sampleIndex } from '../helpers/index-fixture.js';

/**
 * Property tests for the search input path, the one piece of the hostile-input surface the
 * existing properties (chunker: test/indexer/chunk.unit.test.ts, tokenizer: test/index/tokenize.unit.test.ts,
 * webhook decoder: packages/platform/test/webhook-decode.property.test.ts) do not cover: whatever string
 * a client sends as searchTerm, the tool's schema refuses it with a clear message or the engine
 * answers with well-formed results that render within the size budget. Nothing throws.
 */

let engine: LoadedEngine;
beforeAll(async () => {
  engine = await openEngine(sampleIndex());
});
afterAll(async () => {
  await engine?.close();
});

/** Strings a hostile client would try: any code unit, any code point, and runs of syntax characters mixed with real words. */
const hostileTerm = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  // Lone surrogates and other code units that are not valid text on their own.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 80 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'webhook',
          'signature',
          'token',
          'zanzibar',
          '__proto__',
          'constructor',
          'AND',
          'OR',
          'NOT',
          '*',
          '"',
          '\\',
          '(',
          ')',
          '[',
          ']',
          '{',
          '}',
          '^',
          '$',
          '|',
          '?',
          '+',
          '~2',
          ':',
          '-',
          '/',
          '\u0000',
          '\ufffd',
          '\u200b',
          '🙂',
          ' ',
          '\t',
          '\n',
        ),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join('')),
  // Near the length limit, both sides of it.
  fc.integer({ min: 990, max: 1010 }).map((n) => 'w'.repeat(n)),
);

describe('searchTerm (property)', () => {
  it('is refused with a clear message or answered with well-formed, budget-bounded results', async () => {
    await fc.assert(
      fc.asyncProperty(hostileTerm, async (term) => {
        const parsed = searchDocsInputSchema.safeParse({ searchTerm: term });
        if (!parsed.success) {
          const message = parsed.error.issues.map((i) => i.message).join('; ');
          expect(message).toMatch(/searchTerm is empty|searchTerm is longer than 1000 characters/);
          expect(term.trim() === '' || term.trim().length > 1000).toBe(true);
          return;
        }
        const searchTerm = parsed.data.searchTerm;
        const results = await engine.search(searchTerm, { limit: 5 });
        expect(results.length).toBeLessThanOrEqual(5);
        for (const result of results) {
          expect(Number.isFinite(result.score)).toBe(true);
          expect(result.sections.filter((s) => s.isBest)).toHaveLength(1);
          const positions = result.sections.map((s) => s.position);
          expect(positions).toEqual(positions.map((_, i) => positions[0]! + i));
        }
        const budgetChars = 4000;
        const rendered = renderSearch(searchTerm, results, { budgetChars });
        expect(rendered.structured.query).toBe(searchTerm);
        // Over budget only when the top result's best section alone is.
        const shown = rendered.structured.results;
        if (shown.length > 1 || (shown[0]?.sections.length ?? 0) > 1)
          expect(rendered.text.length).toBeLessThanOrEqual(budgetChars);
      }),
      { numRuns: 250 },
    );
  });

  it('parses any string into a bounded query of lower-case terms (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 1000 }), (text) => {
        const query = parseQuery(text);
        // Every term counts; only a question's filler words (six terms or more) count less.
        for (const [term, weight] of query.terms) {
          expect(term.length).toBeGreaterThan(0);
          expect(weight === 1 || (weight === FILLER_WEIGHT && tokenize(text).length >= 6)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
