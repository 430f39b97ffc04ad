import type { QualityReport } from './results.js';
import { HELD_OUT_PREAMBLE, heldOutTables } from './summary-heldout.js';
import { f, tableHead } from './summary-format.js';

/** The quality sections of bench/results/summary.md: what reaches the assistant, then each set's systems. */

export function qualityLines(quality: QualityReport[]): string[] {
  if (quality.length === 0) return [];
  const lines = [
    '## What reaches the assistant: shipped engine against plain BM25, held-out halves',
    '',
    ...HELD_OUT_PREAMBLE,
  ];
  for (const q of quality) lines.push(...heldOutTables(q.answers));
  for (const q of quality) {
    lines.push(
      `## Quality: ${q.set}, held-out half (${q.queries} queries; ${q.documents} documents, ${q.sections} sections)`,
      '',
      ...systemsTable(q),
      ...styleTable(q),
      ...labelTable(q),
      ...typoTable(q),
      '',
    );
  }
  return lines;
}

function systemsTable(q: QualityReport): string[] {
  const lines = tableHead(['system', 'nDCG@10', 'Recall@5', 'Recall@10', 'MRR', 'Hit@1', 'Section@1']);
  for (const s of q.systems) {
    const o = s.overall;
    lines.push(
      `| ${s.system} | ${f(o.ndcg10)} | ${f(o.recall5)} | ${f(o.recall10)} | ${f(o.mrr)} | ${f(o.hit1)} | ${f(o.section1)} |`,
    );
  }
  return lines;
}

function styleTable(q: QualityReport): string[] {
  const styles = Object.keys(q.systems[0]?.byStyle ?? {});
  const lines = [
    '',
    'nDCG@10 by query style:',
    '',
    ...tableHead(['system', ...styles.map((s) => `${s} (${q.systems[0]!.byStyle[s]!.queries})`)]),
  ];
  for (const s of q.systems)
    lines.push(`| ${s.system} | ${styles.map((st) => f(s.byStyle[st]!.ndcg10)).join(' | ')} |`);
  return lines;
}

function labelTable(q: QualityReport): string[] {
  const shipped = q.systems.find((s) => s.system === 'hybrid (shipped)');
  if (!shipped?.labels) return [];
  const lines = [
    '',
    'Relevance labels of the shipped system (share of results with the label that are judged relevant):',
    '',
    ...tableHead(['label', 'results', 'precision']),
  ];
  for (const [label, v] of Object.entries(shipped.labels))
    lines.push(`| ${label} | ${v.count} | ${v.count === 0 ? '–' : f(v.precision, 2)} |`);
  return lines;
}

function typoTable(q: QualityReport): string[] {
  if (q.typos.length === 0) return [];
  const lines = [
    '',
    `The same queries with one typo each in their longest word (e.g. ${q.typoExamples.map((e) => `"${e}"`).join(', ')}):`,
    '',
    ...tableHead(['system', 'nDCG@10', 'Hit@1', 'nDCG@10 without the typo']),
  ];
  for (const s of q.typos) {
    const clean =
      q.systems.find((c) => c.system === s.system) ?? q.systems.find((c) => c.system === 'hybrid (shipped)')!;
    lines.push(`| ${s.system} | ${f(s.overall.ndcg10)} | ${f(s.overall.hit1)} | ${f(clean.overall.ndcg10)} |`);
  }
  return lines;
}
