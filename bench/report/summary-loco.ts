import { BUDGET_CURVE } from '../quality/answers.js';
import type { HeldOutFigures } from '../quality/loco-fit.js';
import { pairedByQuery } from '../lib/paired.js';
import { OBJECTIVE_WEIGHTS } from '../quality/loco.js';
import type { LeftOutReport, LeftOutSummary, NotCoveredCount } from '../quality/loco-report.js';
import { RESPONSE_BUDGET_CHARS } from '../quality/response.js';
import { tableHead } from './summary-format.js';

/** The left-out tables of the quality summary (bench/quality/loco-report.ts), worst corpus first, with the issue's goals. */

const f = (x: number) => x.toFixed(3);
const chars = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** Issue 39's "Done when", per corpus and left-out. */
export const LEFT_OUT_GOALS = {
  budgetLoss: 0.02,
  paraphraseBudgetLoss: 0.05,
  foundThenDropped: 0.03,
  falseNotCovered: 0.01,
  offTopicMedianChars: 1_500,
  medianChars: 12_000,
} as const;

const COLUMNS = [
  'corpus (held-out n)',
  'Hit@1',
  'Hit@5',
  'Hit@1 whole',
  'Hit@5 whole',
  'paraphrase Hit@5 (whole)',
  'found-then-dropped',
  'false not-covered',
  'off-topic median chars (starred)',
  'median chars',
  `Hit@5 at ${BUDGET_CURVE.map((b) => `${b / 1000}k`).join(' / ')}`,
];

function row(set: string, figures: HeldOutFigures): string {
  const s = figures.answers.overall;
  const para = figures.answers.byStyle.paraphrase;
  const off = figures.offTopic;
  const starred = off.perQuery.filter((o) => o.stars > 0).length;
  return `| ${[
    `${set} (${s.queries})`,
    f(s.hit1),
    f(s.hit5),
    f(s.hit1Full),
    f(s.hit5Full),
    para ? `${f(para.hit5)} (${f(para.hit5Full)})` : '–',
    f(s.foundThenDropped),
    f(s.falseNotCovered),
    `${chars(off.medianChars)} (${starred} of ${off.queries})`,
    chars(s.medianChars),
    s.hit5At.map(f).join(' / '),
  ].join(' | ')} |`;
}

/** The goals a corpus misses, left-out; Hit@1 is held against what ships today. */
export function missedGoals(r: LeftOutReport): string[] {
  const g = LEFT_OUT_GOALS;
  const s = r.leftOut.answers.overall;
  const para = r.leftOut.answers.byStyle.paraphrase;
  const off = r.leftOut.offTopic;
  const missed: string[] = [];
  if (s.hit5 < s.hit5Full - g.budgetLoss - 1e-9) missed.push('Hit@5 within 0.02 of whole windows');
  if (para && para.hit5 < para.hit5Full - g.paraphraseBudgetLoss - 1e-9) missed.push('paraphrase Hit@5 within 0.05');
  if (s.hit1 < r.shipped.answers.overall.hit1 - 1e-9) missed.push("Hit@1 at least today's");
  if (s.foundThenDropped > g.foundThenDropped + 1e-9) missed.push('found-then-dropped ≤ 3 %');
  if (s.falseNotCovered > g.falseNotCovered + 1e-9) missed.push('false not-covered ≤ 1 %');
  if (off.medianChars > g.offTopicMedianChars || off.starred > 0) missed.push('off-topic ≤ 1,500 chars, unstarred');
  if (s.medianChars > g.medianChars) missed.push('median ≤ 12,000 chars');
  return missed;
}

/** The left-out fit's Hit@5 against what ships, paired per held-out query (sign-flip p: the halves are small). */
function versusShipped(r: LeftOutReport): string {
  const t = pairedByQuery(r.shipped.answers.perQuery, r.leftOut.answers.perQuery, (q) => q.hit5);
  const d = t.meanDifference;
  return `${d < 0 ? '−' : '+'}${f(Math.abs(d))} (${t.p < 0.001 ? '< 0.001' : t.p.toFixed(2)})`;
}

export function leftOutLines(summary: LeftOutSummary): string[] {
  const w = OBJECTIVE_WEIGHTS;
  const axes = [
    ...Object.entries(summary.axes.passages).map(([k, v]) => `${k} ${(v as readonly number[]).join(', ')}`),
    `starMinMatch ${summary.axes.starMinMatch.join(', ')}`,
  ];
  const lines = [
    '## Left out: each corpus judged with settings chosen on the other corpora, worst corpus first',
    '',
    `For each corpus, every fitted number is chosen on the OTHER corpora's tuning halves and the corpus's held-out half is judged with it (\`bench/quality/loco.ts\`): the label bands are calibrated there (\`bench/quality/calibrate.ts\`), and one point of a grid of ${summary.gridPoints} renderings, each with every star rule (${axes.join('; ')}; the first value of each is what ships), is chosen by the mean over those corpora of Hit@5 within ${chars(RESPONSE_BUDGET_CHARS)} characters − ${w.falseNotCovered} × false not-covered − ${w.offTopicSize} × off-topic characters / budget − ${w.offTopicStarred} × starred off-topic. Each corpus's index is built once and searched once per query; every grid point re-renders those results, and bands and star rule relabel them.`,
    '',
    `Hit@k within ${chars(RESPONSE_BUDGET_CHARS)} characters, and with whole ±15-section windows; found-then-dropped: share of questions whose answer is in the top 5's whole windows but not in the response; false not-covered: share of these answerable questions given the short not-covered answer; off-topic: the held-out half's questions the docs do not cover, median characters (responses with a starred result).`,
    '',
    ...tableHead(COLUMNS),
    ...summary.corpora.map((r) => row(r.set, r.leftOut)),
    '',
    'The same held-out halves with what ships today (the shipped bands and point 0 of the grid):',
    '',
    ...tableHead(COLUMNS),
    ...summary.corpora.map((r) => row(r.set, r.shipped)),
    '',
    ...tableHead([
      'corpus',
      'chosen on',
      'fit (differences from what ships)',
      'Hit@5 left-out − shipped (p)',
      'label bands (excellent / very / relevant / moderate)',
      'goals missed, left-out',
    ]),
  ];
  for (const r of summary.corpora) {
    const t = r.fit.thresholds;
    const bands = [t.excellent, t.veryRelevant, t.relevant, t.moderate].map((x) =>
      Number.isFinite(x) ? x.toFixed(3) : '–',
    );
    const missed = missedGoals(r);
    lines.push(
      `| ${r.set} | ${r.fit.chosenOn.join(', ')} | ${r.fit.point} | ${versusShipped(r)} | ${bands.join(' / ')} | ${missed.length === 0 ? 'none' : missed.join('; ')} |`,
    );
  }
  lines.push('', ...everyQuestionLines(summary.corpora));
  return lines;
}

const share = (c: NotCoveredCount) =>
  `${c.notCovered} of ${c.answerable} (${f(c.answerable === 0 ? 0 : c.notCovered / c.answerable)})`;

/** False not-covered over every answerable question of both halves, per corpus and in total: the issue allows 1 in 100. */
export function everyQuestionLines(corpora: readonly LeftOutReport[]): string[] {
  const total = (which: 'leftOut' | 'shipped') =>
    corpora.reduce(
      (sum, r) => ({
        answerable: sum.answerable + r.everyQuestion[which].answerable,
        notCovered: sum.notCovered + r.everyQuestion[which].notCovered,
      }),
      { answerable: 0, notCovered: 0 },
    );
  const [leftOut, shipped] = [total('leftOut'), total('shipped')];
  const met = leftOut.notCovered <= LEFT_OUT_GOALS.falseNotCovered * leftOut.answerable;
  return [
    'False not-covered over every answerable labelled question, tuning and held-out halves together (goal: at most 1 in 100 in total):',
    '',
    ...tableHead(['corpus', 'left-out fit', 'shipped']),
    ...corpora.map((r) => `| ${r.set} | ${share(r.everyQuestion.leftOut)} | ${share(r.everyQuestion.shipped)} |`),
    `| total | ${share(leftOut)} | ${share(shipped)} |`,
    '',
    `Every question, left-out: ${met ? 'goal met' : 'goal missed'}.`,
    '',
  ];
}
