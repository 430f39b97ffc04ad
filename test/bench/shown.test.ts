import { describe, expect, it } from 'vitest';
import {
  assertTuningOnly,
  halfOf,
  HeldOutQueryError,
  splitHalf,
  type LabelledQuery,
  type QuerySet,
} from '../../bench/queries.js';
import { answerAt, firstAnswerRank, showsAnswer } from '../../bench/shown.js';

const query: LabelledQuery = {
  id: 'q',
  style: 'paraphrase',
  query: 'let a team see only its apps',
  relevant: [
    { doc: 'kb/rbac.md', grade: 2, headings: ['RBAC Configuration'] },
    { doc: 'kb/projects.md', grade: 1 },
  ],
};
const section = (...headings: string[]) => ({ headings });

describe('the answer is shown', () => {
  it('needs a labelled heading, or a section under one, among the shown sections of a labelled page', () => {
    expect(
      showsAnswer(query, {
        doc: 'kb/rbac.md',
        sections: [section('RBAC'), section('RBAC', 'RBAC Configuration', 'Example')],
      }),
    ).toBe(true);
    // The page is right but the answering section was cut away.
    expect(showsAnswer(query, { doc: 'kb/rbac.md', sections: [section('RBAC'), section('RBAC', 'Tokens')] })).toBe(
      false,
    );
  });

  it('counts any shown section of a relevant page whose headings are not labelled', () => {
    expect(showsAnswer(query, { doc: 'kb/projects.md', sections: [section('Projects')] })).toBe(true);
    expect(showsAnswer(query, { doc: 'kb/other.md', sections: [section('RBAC Configuration')] })).toBe(false);
  });

  it('ranks the first result that shows the answer', () => {
    const results = [
      { doc: 'kb/other.md', sections: [section('x')] },
      { doc: 'kb/rbac.md', sections: [section('Tokens')] },
      { doc: 'kb/projects.md', sections: [section('y')] },
    ];
    expect(firstAnswerRank(query, results)).toBe(3);
    expect(answerAt(query, results, 1)).toBe(0);
    expect(answerAt(query, results, 2)).toBe(0);
    expect(answerAt(query, results, 3)).toBe(1);
    expect(firstAnswerRank(query, [])).toBe(0);
  });
});

describe('the tuning / held-out split', () => {
  const ids = Array.from({ length: 200 }, (_, i) => `query-${i}`);
  const set: QuerySet = { corpus: 'c', corpusDir: '/c', name: 's', queries: ids.map((id) => ({ ...query, id })) };

  it('depends on the id alone: the same query keeps its half whatever else is in the set', () => {
    const tuning = splitHalf(set, 'tuning').queries.map((q) => q.id);
    const reordered = splitHalf({ ...set, queries: [...set.queries].reverse().slice(0, 150) }, 'tuning').queries.map(
      (q) => q.id,
    );
    expect(reordered.every((id) => tuning.includes(id))).toBe(true);
    expect(tuning.every((id) => halfOf(id) === 'tuning')).toBe(true);
  });

  it('is sha256(id)[0] even → tuning, which splits about evenly', () => {
    // sha256("a") starts with 0xca (even), sha256("b") with 0x3e (even), sha256("c") with 0x2e (even), sha256("d") with 0x18 (even), sha256("e") with 0x3f (odd).
    expect(['a', 'b', 'c', 'd', 'e'].map(halfOf)).toEqual(['tuning', 'tuning', 'tuning', 'tuning', 'heldout']);
    const tuning = splitHalf(set, 'tuning').queries.length;
    expect(tuning + splitHalf(set, 'heldout').queries.length).toBe(200);
    expect(tuning).toBeGreaterThan(70);
    expect(tuning).toBeLessThan(130);
  });

  it('lets the tuner refuse held-out queries', () => {
    expect(() => assertTuningOnly(splitHalf(set, 'tuning').queries)).not.toThrow();
    expect(() => assertTuningOnly(set.queries)).toThrow(HeldOutQueryError);
  });
});
