import type { AnswerScores } from './answers.js';
import type { HeldOutReport } from './heldout.js';
import type { PairedTest } from './paired.js';
import { RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';

/** summary.md's held-out tables: shipped engine against plain BM25, per corpus, with the paired test. */

/** Issue 12's bar for the shipped engine over plain BM25 on every held-out half. */
export const GOALS = { hit1Gain: 0.05, hit5Gain: 0.03, medianChars: 12_000, budgetLoss: 0.01 };

const f = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x < 0 ? '−' : '+'}${f(Math.abs(x))}`;
const chars = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const pValue = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

function head(columns: string[]): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
}

function row(name: string, s: AnswerScores, para: AnswerScores | undefined): string {
  const p = para ? [f(para.hit1), f(para.hit5), f(para.ndcg10)] : ['–', '–', '–'];
  return `| ${name} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.hit5Unbudgeted)} | ${f(s.mrr)} | ${f(s.ndcg10)} | ${p.join(' | ')} | ${chars(s.medianChars)} |`;
}

function pairedRow(metric: string, t: PairedTest): string {
  return `| ${metric} | ${f(t.meanB)} | ${f(t.meanA)} | ${signed(t.meanDifference)} | [${signed(t.ci95[0])}, ${signed(t.ci95[1])}] | ${t.better} / ${t.worse} | ${pValue(t.p)}${t.exact ? ' (exact)' : ''} |`;
}

export const HELD_OUT_PREAMBLE = [
  `Every labelled set is split once by query id (first byte of sha256(id) even → tuning half, odd → held-out half; bench/queries/README.md). Settings are chosen on tuning halves (\`bench/tune.ts\`); settings chosen before this protocol saw the whole svc and argocd sets (bench/results/tuning.md). Everything below is on the held-out halves only.`,
  '',
  `Each query is answered as the SearchDocs tool answers it: ${RESULT_COUNT} results, rendered by \`renderSearch\` within the default budget of ${chars(RESPONSE_BUDGET_CHARS)} characters. A result *shows the answer* when its page is judged relevant and, where the set labels headings for that page, one of the sections the response shows is (under) a labelled heading. Hit@k: the answer is shown in one of the first k results of the response; "no budget": the same results with their full ±15-section windows; MRR: 1 / rank of the first result showing the answer in the response; nDCG@10: graded page ranking of the first ten pages; chars: median length of the response text. Plain BM25: k1 1.2, b 0.75 over each section's heading path and body (the project tokenizer), one result per page by its best section, ±15-section window (\`bench/bm25-floor.ts\`), rendered the same way. Paired test: per-query differences, two-sided sign-flip randomization (exact up to 16 non-zero differences, else 10,000 seeded draws) and a bootstrap 95 % interval (\`bench/paired.ts\`).`,
  '',
];

export function heldOutTables(r: HeldOutReport): string[] {
  const lines: string[] = [];
  lines.push(
    `### ${r.set}: held-out half (${r.queries} queries; ${r.tuningQueries} more in the tuning half, not reported)`,
    '',
  );
  lines.push(
    ...head([
      'system',
      'Hit@1',
      'Hit@5',
      'Hit@5 no budget',
      'MRR',
      'nDCG@10',
      'paraphrase Hit@1',
      'paraphrase Hit@5',
      'paraphrase nDCG@10',
      'median chars',
    ]),
  );
  lines.push(row(r.shipped.system, r.shipped.overall, r.shipped.byStyle.paraphrase));
  lines.push(row(r.floor.system, r.floor.overall, r.floor.byStyle.paraphrase));
  const styles = Object.keys(r.shipped.byStyle);
  lines.push(
    '',
    'Hit@5 / nDCG@10 by query style:',
    '',
    ...head(['system', ...styles.map((s) => `${s} (${r.shipped.byStyle[s]!.queries})`)]),
  );
  for (const s of [r.shipped, r.floor])
    lines.push(
      `| ${s.system} | ${styles.map((st) => `${f(s.byStyle[st]!.hit5)} / ${f(s.byStyle[st]!.ndcg10)}`).join(' | ')} |`,
    );
  lines.push(
    '',
    'Shipped − plain BM25, paired per query:',
    '',
    ...head(['metric', 'shipped', 'BM25', 'difference', 'bootstrap 95 %', 'queries better / worse', 'p (sign flip)']),
  );
  lines.push(
    pairedRow('Hit@1', r.paired.hit1),
    pairedRow('Hit@5', r.paired.hit5),
    pairedRow('nDCG@10', r.paired.ndcg10),
  );
  const s = r.shipped.overall;
  const checks = [
    `Hit@1 ${signed(r.paired.hit1.meanDifference)} (goal ≥ +${GOALS.hit1Gain.toFixed(2)}: ${r.paired.hit1.meanDifference >= GOALS.hit1Gain ? 'met' : 'not met'})`,
    `Hit@5 ${signed(r.paired.hit5.meanDifference)} (goal ≥ +${GOALS.hit5Gain.toFixed(2)}: ${r.paired.hit5.meanDifference >= GOALS.hit5Gain ? 'met' : 'not met'})`,
    `median ${chars(s.medianChars)} characters (goal ≤ ${chars(GOALS.medianChars)}: ${s.medianChars <= GOALS.medianChars ? 'met' : 'not met'})`,
    `Hit@5 with budget ${signed(s.hit5 - s.hit5Unbudgeted)} against without (goal within ${GOALS.budgetLoss.toFixed(2)}: ${s.hit5Unbudgeted - s.hit5 <= GOALS.budgetLoss + 1e-9 ? 'met' : 'not met'})`,
  ];
  lines.push('', `Issue 12's bar for the shipped engine: ${checks.join('; ')}.`, '');
  return lines;
}
