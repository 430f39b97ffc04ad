import { describe, expect, it } from 'vitest';
import { stem } from '../../src/index/tokenize.js';
import { FILLER_WEIGHT, parseQuery } from '../../src/search/query.js';

describe('parseQuery', () => {
  it("discounts a question's filler words", () => {
    const q = parseQuery('make argo put things back automatically when someone edits resources');
    expect(q.terms.get('make')).toBe(FILLER_WEIGHT);
    expect(q.terms.get(stem('someone'))).toBe(FILLER_WEIGHT);
    expect(q.terms.get(stem('things'))).toBe(FILLER_WEIGHT);
    expect(q.terms.get(stem('automatically'))).toBe(1);
    expect(q.terms.get(stem('resources'))).toBe(1);
  });

  it('keeps every word of a short query at full weight: "make targets" is about make', () => {
    const q = parseQuery('make targets');
    expect(q.terms.get('make')).toBe(1);
  });

  it('never treats negations as filler', () => {
    const q = parseQuery('the sync never finishes and nothing is deployed to the cluster');
    expect(q.terms.get('never')).toBe(1);
    expect(q.terms.get(stem('nothing'))).toBe(1);
  });
});
