import { compactCount } from '../scale/scale-chart.js';
import type { ScalePoint } from '../scale/scale-point.js';
import type { ScaleReport, ScaleSeries } from '../scale/scale.js';
import { f, mb, ms, tableHead as head } from './summary-format.js';

/** The Scale section of summary.md: the distinct corpus, then the near-copies stress case, each with its own tables. */

const DISTINCT =
  "The distinct corpus: the five real corpora as they are (Argo CD, Vitest, Material for MkDocs, tRPC, Hugo), then with pages recombined from them (bench/scale/scale-mix.ts) up to each size: each page takes the shape of a real page (its sections and kinds of block) and fills it from all five, prose resampled sentence by sentence, code, lists and tables drawn whole, a title and headings from the pools, a name of its own in its title and on about half of its identifiers (`maxIdleConnsKavoti`). No two sections are near-copies, the vocabulary grows with the corpus, and every section is embedded by the real model. Each index is loaded by a fresh process as the server loads it (openEngine: postings and section text stay on disk, read and verified when a query needs them); it runs every labelled set's queries (Argo CD, Vitest, Material for MkDocs, tRPC, Hugo; hybrid, shipped settings), times the lexical stage with and without MaxScore pruning, and compares HNSW with exact search on the query vectors.";

const COPIES =
  "The near-duplicate stress case: the Argo CD docs as they are, then grown with versioned copies (`argocd-versions/v001/…`) whose prose is perturbed (8 % of words repeated, 6 % followed by an inserted identifier-like token from 300k, Zipf-like); a copy's section gets its original's vector plus Gaussian noise (cosine ≈ 0.96), so copies form tight clusters of near-duplicates, which no real docs set looks like and which is hard for HNSW. Probed with the Argo CD queries.";

function buildTable(series: ScaleSeries, embedRate: number): string[] {
  const lines = [
    ...head([
      'sections',
      'documents',
      'build (s)',
      'build peak RSS (MB)',
      'sections embedded in the build / given a copy vector',
      'index on disk (MB)',
    ]),
  ];
  for (const p of series.points) {
    const b = p.build;
    const built = p.builtAt ? ` (index reused; built ${p.builtAt})` : '';
    lines.push(
      `| ${b.sections}${p.target === undefined ? ' (as is)' : ''} | ${b.documents} | ${b.seconds.toFixed(1)}${built} | ${mb(b.peakRssMB)} | ${b.embedded} / ${b.reused} | ${(p.index.bytes / 2 ** 20).toFixed(1)} |`,
    );
  }
  lines.push(
    '',
    `The real model embeds ${embedRate.toFixed(0)} sections/s here (sections embedded in a build exclude those its vector cache already held).`,
  );
  return lines;
}

function servingTable(series: ScaleSeries): string[] {
  const lines = [
    ...head([
      'sections',
      'index load (ms)',
      'p50',
      'p95',
      'CPU per search p50, p95',
      'lexical p50: shipped, pruning every query, every match',
      'lexical p95: shipped, pruning every query, every match',
      'vector p50',
      'HNSW recall@10',
      'RSS after queries (MB)',
      'RSS / index on disk',
      'peak RSS (MB)',
    ]),
  ];
  for (const p of series.points) {
    const q = p.probe;
    const { pruned, always, exhaustive } = q.lexical;
    const disk = p.index.bytes / 2 ** 20;
    lines.push(
      `| ${p.build.sections} | ${q.loadMs.toFixed(0)} | ${ms(q.total.p50)} | ${ms(q.total.p95)} | ${ms(q.cpu.p50)}, ${ms(q.cpu.p95)} | ${ms(pruned.p50)}, ${ms(always.p50)}, ${ms(exhaustive.p50)} | ${ms(pruned.p95)}, ${ms(always.p95)}, ${ms(exhaustive.p95)} | ${ms(q.stagesP50.vectorMs)} | ${f(q.recall10)} | ${mb(q.memory.servingMB)} | ${f(q.memory.servingMB / disk, 2)} | ${mb(q.memory.peakMB)} |`,
    );
  }
  return lines;
}

function hnswTable(points: ScalePoint[]): string[] {
  const lines = [
    ...head(['sections', 'M', 'efConstruction', 'exact (ms)', 'efSearch: recall@10, ms, speed-up over exact']),
  ];
  for (const p of points) {
    const v = p.probe.vectorSearch;
    const sweep = v.sweep
      .map(
        (w) =>
          `${w.efSearch}${w.efSearch === v.efSearch ? '*' : ''}: ${f(w.recall10)}, ${ms(w.ms)}, ${(v.exactMs / w.ms).toFixed(0)}×`,
      )
      .join('; ');
    lines.push(`| ${p.build.sections} | ${v.m} | ${v.efConstruction} | ${ms(v.exactMs)} | ${sweep} |`);
  }
  return lines;
}

function seriesLines(title: string, intro: string, series: ScaleSeries, embedRate: number): string[] {
  if (series.points.length === 0) return [];
  const last = series.points[series.points.length - 1]!;
  return [
    `### ${title}`,
    '',
    intro,
    '',
    'Building:',
    '',
    ...buildTable(series, embedRate),
    '',
    "Serving (a fresh process per size; the whole search, ms of wall time and of the process's CPU time, and its lexical and vector stages; memory of that process):",
    '',
    ...servingTable(series),
    '',
    "HNSW against exact search (the same query vectors; median time per search, ms; recall@10 at each efSearch, the index's own marked *):",
    '',
    ...hnswTable(series.points),
    '',
    `The probe process holds ${mb(last.probe.memory.baselineMB)} MB before loading anything and ${mb(last.probe.memory.modelMB)} MB with the model loaded. Index files at the largest size: ${Object.entries(
      last.index.files,
    )
      .map(([name, bytes]) => `${name} ${(bytes / 2 ** 20).toFixed(1)} MB`)
      .join(', ')}.`,
    ...series.notRun.map((n) => `\nNot run: ${compactCount(n.sections)} sections: ${n.reason}.`),
    '',
  ];
}

export function scaleLines(sc: ScaleReport, quick: boolean): string[] {
  return [
    '## Scale',
    '',
    ...seriesLines('Distinct sections', DISTINCT, sc.distinct, sc.embedSectionsPerSecond),
    ...seriesLines('Near-copies (stress case)', COPIES, sc.copies, sc.embedSectionsPerSecond),
    `![Latency and memory against size](scale${quick ? '-quick' : ''}.svg)`,
    '',
  ];
}

/** The Ratios rows of the scale part: latency growth with the data, and the pruned lexical stage against exhaustive. */
export function scaleRatios(sc: ScaleReport): string[] {
  const rows: string[] = [];
  const { points } = sc.distinct;
  if (points.length > 1) {
    const a = points[0]!;
    const z = points[points.length - 1]!;
    rows.push(
      `| p50 latency, distinct ${compactCount(z.build.sections)} / ${compactCount(a.build.sections)} sections (${(z.build.sections / a.build.sections).toFixed(0)}× the data) | ${(z.probe.total.p50 / a.probe.total.p50).toFixed(2)}× |`,
    );
  }
  const z = points[points.length - 1];
  if (z) {
    const { pruned, always, exhaustive } = z.probe.lexical;
    const v = z.probe.vectorSearch;
    const own = v.sweep.find((w) => w.efSearch === v.efSearch);
    rows.push(
      `| lexical stage at ${compactCount(z.build.sections)} distinct sections, shipped / every match scored, p50 and p95 | ${(pruned.p50 / exhaustive.p50).toFixed(2)}×, ${(pruned.p95 / exhaustive.p95).toFixed(2)}× |`,
      `| … MaxScore pruning every query it can / every match scored, p50 and p95 | ${(always.p50 / exhaustive.p50).toFixed(2)}×, ${(always.p95 / exhaustive.p95).toFixed(2)}× |`,
      ...(own
        ? [
            `| HNSW search at ${compactCount(z.build.sections)} distinct sections, exact / HNSW (efSearch ${v.efSearch}, recall@10 ${f(own.recall10)}) | ${(v.exactMs / own.ms).toFixed(0)}× |`,
          ]
        : []),
      `| server RSS after the queries / index on disk, ${compactCount(z.build.sections)} distinct sections | ${(z.probe.memory.servingMB / (z.index.bytes / 2 ** 20)).toFixed(2)}× |`,
    );
  }
  return rows;
}
