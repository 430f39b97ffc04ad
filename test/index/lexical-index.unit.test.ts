import { describe, expect, it } from 'vitest';
import { buildLexicalData } from '../../src/index/build-lexical.js';
import { LexicalIndex } from '../../src/index/lexical-index.js';
import type { FieldTokens } from '../../src/index/lexical-data.js';
import { tokenize } from '../../src/index/tokenize.js';

const section = (title: string, headings: string, body: string): FieldTokens => ({
  title: tokenize(title),
  headings: tokenize(headings),
  body: tokenize(body),
});

const sections = [
  section(
    'Webhooks',
    'Verify the signature',
    'Verify the JWT signature with the public key before trusting the payload.',
  ),
  section('Webhooks', 'Idempotency', 'Skip an event whose id was already processed.'),
  section('Tokens', 'Create a token', 'POST the client credentials to get an access token.'),
  section('Overview', 'Gift cards', 'Gift cards and store credit. Signature appears here once.'),
];

function query(text: string, weight = 1): Map<string, number> {
  return new Map(tokenize(text).map((t) => [t, weight]));
}

describe('LexicalIndex (BM25F)', () => {
  const index = new LexicalIndex(buildLexicalData(sections));

  it('groups postings by sorted term, in section order, with counts per field', () => {
    const data = buildLexicalData(sections);
    expect(data.terms).toEqual([...data.terms].sort());
    const t = data.terms.indexOf('signatur');
    const [start, end] = [data.termStart[t]!, data.termStart[t + 1]!];
    expect(Array.from(data.postingSections.subarray(start, end))).toEqual([0, 3]);
    expect([data.tf.title[start], data.tf.headings[start], data.tf.body[start]]).toEqual([0, 1, 1]);
    expect(data.termStart[data.terms.length]).toBe(data.postingSections.length);
    expect(Array.from(data.lengths.title)).toEqual(sections.map((s) => s.title.length));
  });

  it('ranks a heading match above a passing body mention', () => {
    const hits = index.search(query('signature'));
    const best = hits.sections[hits.scores.indexOf(Math.max(...hits.scores))];
    expect(best).toBe(0);
  });

  it('scores only sections that contain a query term', () => {
    const hits = index.search(query('idempotency'));
    expect(Array.from(hits.sections)).toEqual([1]);
  });

  it('gives rarer terms more weight (idf)', () => {
    expect(index.idf('idempot')).toBeGreaterThan(index.idf('signatur'));
  });

  it('reports coverage of the user terms, crediting expansions at their weight', () => {
    const q = query('verify signature');
    const full = index.search(q);
    expect(full.coverage[Array.from(full.sections).indexOf(0)]).toBeCloseTo(1);
    const partial = full.coverage[Array.from(full.sections).indexOf(3)]!;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(1);
    const expanded = index.search(
      new Map([
        ['refund', 1],
        ['token', 0.5],
      ]),
    );
    const c = expanded.coverage[Array.from(expanded.sections).indexOf(2)]!;
    expect(c).toBeGreaterThan(0);
    expect(c).toBeLessThan(1);
  });

  it('returns nothing for unknown terms and for an empty query', () => {
    expect(index.search(query('kubernetes')).sections.length).toBe(0);
    expect(index.search(new Map()).sections.length).toBe(0);
  });

  it('scores a variant spelling as the term itself, never twice for a section with both', () => {
    const idx = new LexicalIndex(
      buildLexicalData([
        section('Access', 'Admin login', 'The admin account signs in first.'),
        section('Access', 'Administrator', 'Only an administrator may add users; the admin role is the administrator.'),
        section('Access', 'Users', 'Add users to a group.'),
      ]),
    );
    const own = query('administrator');
    const plain = idx.search(own);
    expect(Array.from(plain.sections).sort()).toEqual([1]);
    const withVariant = idx.search(own, new Map([[own.keys().next().value!, ['admin']]]));
    expect(Array.from(withVariant.sections).sort()).toEqual([0, 1]);
    // A section using both spellings gains from the higher term frequency, saturated as one term:
    // less than its score for either spelling alone added to the other.
    const both = withVariant.scores[Array.from(withVariant.sections).indexOf(1)]!;
    const adminAlone = idx.search(query('admin'));
    const sum = plain.scores[0]! + adminAlone.scores[Array.from(adminAlone.sections).indexOf(1)]!;
    expect(both).toBeLessThan(sum);
    expect(withVariant.coverage.every((c) => c === 1)).toBe(true);
  });

  it("records which of the user's own terms each section matched, and each term's share of the query", () => {
    const hits = index.search(new Map([...query('verify idempotency'), ['refund', 0.5]]));
    const at = (s: number) => hits.matched[Array.from(hits.sections).indexOf(s)];
    expect(at(0)).toBe(0b01);
    expect(at(1)).toBe(0b10);
    expect(hits.ownTermShare).toHaveLength(2);
    expect(hits.ownTermShare.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });

  it('starts every query from clean scratch, however many sections the one before touched', () => {
    // More matching sections than the scratch list first holds, so it grows mid-query.
    const many = Array.from({ length: 3000 }, (_, i) =>
      section(
        `Page ${i % 40}`,
        `Sync ${i % 7 === 0 ? 'waves' : 'options'}`,
        `sync hooks ${i % 3 === 0 ? 'prune' : ''}`,
      ),
    );
    const idx = new LexicalIndex(buildLexicalData(many));
    const waves = () => idx.search(query('waves prune'));
    const first = waves();
    expect(idx.search(query('sync hooks options')).sections.length).toBe(3000);
    const again = waves();
    expect(Array.from(again.sections)).toEqual(Array.from(first.sections));
    expect(Array.from(again.scores)).toEqual(Array.from(first.scores));
    expect(Array.from(again.coverage)).toEqual(Array.from(first.coverage));
    expect(Array.from(again.matched)).toEqual(Array.from(first.matched));
    // Sections 0, 21, 42 … have both terms; 3, 6, 9 … (not multiples of 7) only "prune".
    expect(first.matched[Array.from(first.sections).indexOf(21)]).toBe(0b11);
    expect(first.matched[Array.from(first.sections).indexOf(3)]).toBe(0b10);
    expect(first.sections.length).toBe(many.filter((_, i) => i % 7 === 0 || i % 3 === 0).length);
  });
});
