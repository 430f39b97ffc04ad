import type { BenchResults } from './results.js';
import { tableHead } from './summary-format.js';
import { leftOutLines } from './summary-loco.js';
import { qualityLines } from './summary-quality.js';
import { ratioRows } from './summary-ratios.js';
import { scaleLines } from './summary-scale.js';
import { coldStartLines, httpLines, indexingLines, latencyLines } from './summary-speed.js';

/** bench/results/summary.md: the tables the README quotes, part by part (summary-*.ts), then the ratios. */

function runLines(r: BenchResults, title: string): string[] {
  return [
    `# ${title} (${r.mode})`,
    '',
    `Run ${r.startedAt} on ${r.machine.platform}, ${r.machine.cpus} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; model \`${r.model}\`.`,
    `Command: \`${r.command ?? `npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}`}\`.`,
    '',
  ];
}

/** bench/results/quality.md: the quality part alone, the left-out tables first. */
export function renderQualitySummary(r: BenchResults): string {
  const lines = runLines(r, 'Quality benchmark results');
  if (r.leftOut) lines.push(...leftOutLines(r.leftOut));
  lines.push(...qualityLines(r.quality));
  return lines.join('\n') + '\n';
}

export function renderSummary(r: BenchResults): string {
  const lines = runLines(r, 'Benchmark results');
  if (r.leftOut) lines.push(...leftOutLines(r.leftOut));
  lines.push(...qualityLines(r.quality));
  if (r.latency) lines.push(...latencyLines(r.latency));
  if (r.indexing) lines.push(...indexingLines(r.indexing));
  if (r.http) lines.push(...httpLines(r.http, r.machine.cpus));
  if (r.coldstart) lines.push(...coldStartLines(r.coldstart));
  if (r.scale) lines.push(...scaleLines(r.scale, r.mode === 'quick'));
  const ratios = ratioRows(r);
  if (ratios.length > 0) lines.push('## Ratios', '', ...tableHead(['ratio', 'value']), ...ratios, '');
  const parts = Object.entries(r.seconds).filter(([k]) => k !== 'total');
  if (r.seconds.total !== undefined)
    lines.push(
      `Run time: ${(r.seconds.total / 60).toFixed(1)} min (${parts.map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', ')}).`,
      '',
    );
  const load = Object.entries(r.loadAverage);
  if (load.length > 0) {
    lines.push(
      `Load average (1 min) at the end of each part, on ${r.machine.cpus} cores: ${load.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}. Above ${r.machine.cpus}, other processes were competing for the CPU and every time above is inflated.`,
      '',
    );
  }
  return lines.join('\n') + '\n';
}
