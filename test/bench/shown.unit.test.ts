import { describe, expect, it } from 'vitest';
import {
  assertTuningOnly,
  halfOf,
  HeldOutQueryError,
  splitHalf,
  type LabelledQuery,
  type QuerySet,
} from '../../bench/queries.js';
import { answerAt, firstAnswerRank, showsAnswer } from '../../bench/quality/shown.js';

const query: LabelledQuery = {
  id: 'q',
  style: 'paraphrase',
  query: 'let a team see only its apps',
  relevant: [
    { doc: 'kb/rbac.md', grade: 2, answers: ['p, role:[\\w-]+, applications', 'scoped to (a|one) project'] },
    { doc: 'kb/projects.md', grade: 1, answers: ['restrict what may be deployed'] },
    { doc: 'kb/overview.md', grade: 1 },
  ],
};

describe('the answer is shown', () => {
  it('needs an answer phrase of that page in the text shown for it', () => {
    const rbac = (text: string) => showsAnswer(query, { doc: 'kb/rbac.md', text });
    expect(rbac('## Tokens\n\nA policy line: `p, role:team-a, applications, get, team-a/*, allow`')).toBe(true);
    // Emphasis, links and line breaks do not hide the words (bench/queries/answer-text.ts).
    expect(rbac('Roles are **scoped\nto [one](x.md) project**.')).toBe(true);
    // The page is right but the answering words were cut away.
    expect(rbac('## RBAC Configuration\n\nSee the tokens page.')).toBe(false);
  });

  it('never counts a page that is not labelled, or labelled without phrases', () => {
    const text = 'p, role:team-a, applications';
    expect(showsAnswer(query, { doc: 'kb/other.md', text })).toBe(false);
    expect(showsAnswer(query, { doc: 'kb/overview.md', text })).toBe(false);
    expect(showsAnswer(query, { doc: 'kb/projects.md', text: 'Projects restrict what may be deployed.' })).toBe(true);
  });

  it('ranks the first result that shows the answer', () => {
    const results = [
      { doc: 'kb/other.md', text: 'x' },
      { doc: 'kb/rbac.md', text: 'nothing here' },
      { doc: 'kb/projects.md', text: 'They restrict what may be deployed' },
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
  const set: QuerySet = {
    corpus: 'c',
    corpusDir: '/c',
    name: 's',
    queries: ids.map((id) => ({ ...query, id })),
    offTopic: [],
  };

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
