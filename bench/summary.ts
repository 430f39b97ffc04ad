import type { BenchResults } from './run.js';

/** bench/results/summary.md: the tables the README quotes. */

const f = (x: number, digits = 3) => x.toFixed(digits);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

export function renderSummary(r: BenchResults): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results (${r.mode})`, '');
  lines.push(`Run ${r.startedAt} on ${r.machine.platform}, ${r.machine.cpus} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; model \`${r.model}\`.`);
  lines.push(`Command: \`npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}\`.`, '');
  for (const q of r.quality) {
    lines.push(`## Quality: ${q.set} (${q.queries} queries, ${q.documents} documents, ${q.sections} sections)`, '');
    lines.push('| system | nDCG@10 | Recall@5 | Recall@10 | MRR | Hit@1 | Section@1 |', '|---|---|---|---|---|---|---|');
    for (const s of q.systems) {
      const o = s.overall;
      lines.push(`| ${s.system} | ${f(o.ndcg10)} | ${f(o.recall5)} | ${f(o.recall10)} | ${f(o.mrr)} | ${f(o.hit1)} | ${f(o.section1)} |`);
    }
    const styles = Object.keys(q.systems[0]?.byStyle ?? {});
    lines.push('', 'nDCG@10 by query style:', '', `| system | ${styles.map((s) => `${s} (${q.systems[0]!.byStyle[s]!.queries})`).join(' | ')} |`, `|---|${styles.map(() => '---').join('|')}|`);
    for (const s of q.systems) lines.push(`| ${s.system} | ${styles.map((st) => f(s.byStyle[st]!.ndcg10)).join(' | ')} |`);
    const shipped = q.systems.find((s) => s.system === 'hybrid (shipped)');
    if (shipped?.labels) {
      lines.push('', 'Relevance labels of the shipped system (share of results with the label that are judged relevant):', '', '| label | results | precision |', '|---|---|---|');
      for (const [label, v] of Object.entries(shipped.labels)) lines.push(`| ${label} | ${v.count} | ${v.count === 0 ? '–' : f(v.precision, 2)} |`);
    }
    lines.push('');
  }
  if (r.latency) {
    const l = r.latency;
    lines.push(`## Query latency in-process (argocd, ${l.queries} queries), ms`, '', '| stage | p50 | p95 | p99 |', '|---|---|---|---|');
    for (const [stage, p] of Object.entries(l.hnsw)) lines.push(`| ${stage} | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(p.p99)} |`);
    lines.push(`| floor: embed the query alone | ${ms(l.embedFloor.p50)} | ${ms(l.embedFloor.p95)} | ${ms(l.embedFloor.p99)} |`);
    lines.push(`| exact vector search (vectorMs) | ${ms(l.exact.vectorMs.p50)} | ${ms(l.exact.vectorMs.p95)} | ${ms(l.exact.vectorMs.p99)} |`);
    lines.push('', `Median total with exact search / with HNSW: ${l.exactOverHnsw.toFixed(2)}×.`, '');
  }
  if (r.indexing) {
    const i = r.indexing;
    lines.push('## Indexing (argocd)', '');
    lines.push(`Full build: ${i.documents} documents, ${i.sections} sections in ${i.fullBuildSeconds.toFixed(1)} s (${i.sectionsPerSecond.toFixed(0)} sections/s).`);
    lines.push(`One-file edit reindexed in ${i.incrementalSeconds.toFixed(1)} s, embedding ${i.incrementalSectionsEmbedded} sections: ${i.fullOverIncremental.toFixed(1)}× faster than the full build. No-change reindex: ${i.noChangeSeconds.toFixed(1)} s.`, '');
  }
  return lines.join('\n') + '\n';
}
