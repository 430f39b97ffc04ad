import { describe, expect, it } from 'vitest';
import { answerReport, type QueryOutcome } from '../../bench/quality/answers.js';
import type { HeldOutFigures } from '../../bench/quality/loco-fit.js';
import { type LeftOutReport, worstFirst } from '../../bench/quality/loco-report.js';
import { everyQuestionLines, leftOutLines, missedGoals } from '../../bench/report/summary-loco.js';
import { DEFAULT_RELEVANCE_THRESHOLDS } from '../../src/search/relevance.js';

/** Held-out figures of `n` queries, `hits` of them showing the answer within the budget, all in whole windows. */
function figures(n: number, hits: number, notCovered = 0): HeldOutFigures {
  const outcomes: QueryOutcome[] = Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    style: 'paraphrase',
    hit1: i < hits ? 1 : 0,
    hit5: i < hits ? 1 : 0,
    hit1Full: 1,
    hit5Full: 1,
    hit5At: [0, i < hits ? 1 : 0, 1, 1],
    rr: i < hits ? 1 : 0,
    ndcg10: 1,
    chars: 9_000,
    repeats: 0,
    covered: i < notCovered ? 0 : 1,
  }));
  const offTopic = { system: 's', queries: 2, medianChars: 900, starred: 0, meanResults: 2, perQuery: [] };
  return { answers: answerReport('s', outcomes), offTopic };
}

function report(set: string, leftOut: HeldOutFigures, shipped = leftOut, notCovered = 0): LeftOutReport {
  const fit = { point: 'shipped', thresholds: DEFAULT_RELEVANCE_THRESHOLDS, chosenOn: ['x'], tuningObjective: 0 };
  const count = { answerable: 100, notCovered };
  return { set, fit, leftOut, shipped, everyQuestion: { leftOut: count, shipped: count } };
}

describe('the left-out report', () => {
  it('puts the worst corpus first and names the goals each misses', () => {
    const good = report('good', figures(10, 10));
    const bad = report('bad', figures(10, 6, 1), figures(10, 8));
    const sorted = [good, bad].sort(worstFirst);
    expect(sorted.map((r) => r.set)).toEqual(['bad', 'good']);
    expect(missedGoals(good)).toEqual([]);
    expect(missedGoals(bad)).toEqual([
      'Hit@5 within 0.02 of whole windows',
      'paraphrase Hit@5 within 0.05',
      "Hit@1 at least today's",
      'found-then-dropped ≤ 3 %',
      'false not-covered ≤ 1 %',
    ]);
    const lines = leftOutLines({
      gridPoints: 2,
      axes: { passages: { coveredMin: [0.24, 0.2] }, starMinMatch: [0.5] },
      corpora: sorted,
    });
    const rows = lines.filter((l) => /^\| (bad|good) \(10\)/.test(l));
    expect(lines.find((l) => l.startsWith('| bad | x |'))).toMatch(/\| shipped \| −0\.200 \(0\.\d+\) \|/);
    expect(rows[0]).toMatch(
      /^\| bad \(10\) \| 0\.600 \| 0\.600 \| 1\.000 \| 1\.000 \| 0\.600 \(1\.000\) \| 0\.400 \| 0\.100 \|/,
    );
  });

  it('counts false not-covered over every question of every corpus, and misses the goal past 1 in 100', () => {
    const lines = (a: number, b: number) =>
      everyQuestionLines([report('a', figures(10, 10), undefined, a), report('b', figures(10, 10), undefined, b)]);
    expect(lines(1, 1)).toContain('| total | 2 of 200 (0.010) | 2 of 200 (0.010) |');
    expect(lines(1, 1)).toContain('Every question, left-out: goal met.');
    expect(lines(2, 1)).toContain('| a | 2 of 100 (0.020) | 2 of 100 (0.020) |');
    expect(lines(2, 1)).toContain('Every question, left-out: goal missed.');
  });
});
