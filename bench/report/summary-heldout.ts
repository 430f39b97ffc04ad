import { type AnswerScores, BUDGET_CURVE } from '../quality/answers.js';
import type { HeldOutReport } from '../quality/heldout.js';
import type { OffTopicReport } from '../quality/offtopic.js';
import type { PairedTest } from '../lib/paired.js';
import { RESPONSE_BUDGET_CHARS, RESULT_COUNT } from '../quality/response.js';

/** summary.md's held-out tables: shipped engine against plain BM25, per corpus, judged at the answer. */

/** What the response must keep: within GOALS.budgetLoss of whole windows at Hit@5, median text under the budget, off-topic answers short and starless. */
export const GOALS = { budgetLoss: 0.02, medianChars: 12_000, offTopicMedianChars: 1_500 };

const f = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x < 0 ? '−' : '+'}${f(Math.abs(x))}`;
const chars = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const pValue = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));
const met = (ok: boolean) => (ok ? 'met' : 'not met');

function head(columns: string[]): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
}

function row(name: string, s: AnswerScores): string {
  return `| ${name} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.hit1Full)} | ${f(s.hit5Full)} | ${signed(s.hit5 - s.hit5Full)} | ${f(s.mrr)} | ${f(s.ndcg10)} | ${chars(s.medianChars)} | ${f(s.meanRepeats)} (${f(s.withRepeats)}) |`;
}

function pairedRow(metric: string, t: PairedTest): string {
  return `| ${metric} | ${f(t.meanB)} | ${f(t.meanA)} | ${signed(t.meanDifference)} | [${signed(t.ci95[0])}, ${signed(t.ci95[1])}] | ${t.better} / ${t.worse} | ${pValue(t.p)}${t.exact ? ' (exact)' : ''} |`;
}

function offTopicRow(o: OffTopicReport): string {
  return `| ${o.system} | ${o.queries} | ${chars(o.medianChars)} | ${f(o.starred)} | ${o.meanResults.toFixed(1)} |`;
}

export const HELD_OUT_PREAMBLE = [
  `Every labelled set is split once by query id (first byte of sha256(id) even → tuning half, odd → held-out half; bench/queries/README.md). Settings are chosen on tuning halves (\`bench/quality/tune.ts\`). Everything below is on the held-out halves only.`,
  '',
  `Each query is answered as the SearchDocs tool answers it: ${RESULT_COUNT} results, rendered by \`renderSearch\` within the default budget of ${chars(RESPONSE_BUDGET_CHARS)} characters. A result *shows the answer* when its page is judged relevant and one of the answer phrases labelled for that page (short regexes chosen by reading the answering section) occurs in the text the response shows for that result (\`bench/quality/shown.ts\`). Hit@k: the answer is shown in one of the first k results; "whole windows": the same results with their full ±15-section windows and no budget; "budget loss": Hit@5 within the budget minus Hit@5 with whole windows; MRR: 1 / rank of the first result showing the answer; nDCG@10: graded page ranking of the first ten pages; chars: median length of the response text; repeats: mean number of sentences a response shows more than once (share of responses with any). Plain BM25: k1 1.2, b 0.75 over each section's heading path and body (the project tokenizer), one result per page by its best section, ±15-section window (\`bench/quality/bm25-floor.ts\`), rendered the same way. Paired test: per-query differences, two-sided sign-flip randomization and a bootstrap 95 % interval (\`bench/lib/paired.ts\`).`,
  '',
];

export function heldOutTables(r: HeldOutReport): string[] {
  const lines: string[] = [
    `### ${r.set}: held-out half (${r.queries} queries; ${r.tuningQueries} more in the tuning half, not reported)`,
    '',
    ...head([
      'system',
      'Hit@1',
      'Hit@5',
      'Hit@1 whole windows',
      'Hit@5 whole windows',
      'budget loss',
      'MRR',
      'nDCG@10',
      'median chars',
      'repeats',
    ]),
    row(r.shipped.system, r.shipped.overall),
    row(r.floor.system, r.floor.overall),
    '',
    'Hit@5 by response budget (characters):',
    '',
    ...head(['system', ...BUDGET_CURVE.map((b) => chars(b)), 'whole windows']),
  ];
  for (const s of [r.shipped, r.floor])
    lines.push(`| ${s.system} | ${s.overall.hit5At.map(f).join(' | ')} | ${f(s.overall.hit5Full)} |`);
  const styles = Object.keys(r.shipped.byStyle);
  lines.push(
    '',
    'Hit@1 / Hit@5 by query style:',
    '',
    ...head(['system', ...styles.map((s) => `${s} (${r.shipped.byStyle[s]!.queries})`)]),
  );
  for (const s of [r.shipped, r.floor])
    lines.push(
      `| ${s.system} | ${styles.map((st) => `${f(s.byStyle[st]!.hit1)} / ${f(s.byStyle[st]!.hit5)}`).join(' | ')} |`,
    );
  lines.push(
    '',
    'Shipped − plain BM25, paired per query:',
    '',
    ...head(['metric', 'shipped', 'BM25', 'difference', 'bootstrap 95 %', 'queries better / worse', 'p (sign flip)']),
    pairedRow('Hit@1', r.paired.hit1),
    pairedRow('Hit@5', r.paired.hit5),
    pairedRow('nDCG@10', r.paired.ndcg10),
    '',
    "Questions the docs do not cover (held-out half of the set's off-topic list):",
    '',
    ...head(['system', 'questions', 'median chars', 'share with a starred result', 'results per response']),
    offTopicRow(r.offTopic.shipped),
    offTopicRow(r.offTopic.floor),
  );
  lines.push('', `Goals for the shipped engine: ${goalChecks(r).join('; ')}.`, '');
  return lines;
}

/** The issue's goals for the shipped engine on this held-out half, each with whether it is met. */
function goalChecks(r: HeldOutReport): string[] {
  const s = r.shipped.overall;
  const off = r.offTopic.shipped;
  return [
    `Hit@5 budget loss ${signed(s.hit5 - s.hit5Full)} (goal within ${GOALS.budgetLoss.toFixed(2)}: ${met(s.hit5Full - s.hit5 <= GOALS.budgetLoss + 1e-9)})`,
    `median ${chars(s.medianChars)} characters (goal ≤ ${chars(GOALS.medianChars)}: ${met(s.medianChars <= GOALS.medianChars)})`,
    `off-topic median ${chars(off.medianChars)} characters (goal ≤ ${chars(GOALS.offTopicMedianChars)}: ${met(off.medianChars <= GOALS.offTopicMedianChars)}), ${f(off.starred)} starred (goal 0: ${met(off.starred === 0)})`,
  ];
}
