import type { LeftOutSummary } from '../quality/loco-report.js';
import type { QualityReport } from '../quality/quality-part.js';
import type { ScaleReport } from '../scale/scale.js';
import type { ColdStartReport } from '../speed/coldstart.js';
import type { HttpReport } from '../speed/http.js';
import type { IndexingReport } from '../speed/indexing.js';
import type { LatencyReport } from '../speed/latency.js';

/**
 * The shape of results.json, which bench/run.ts writes and the summary writers read. It lives
 * here, below run.ts, so the writers never import run.ts (run.ts imports them: arrows one way).
 * A quality part's report has its shape where it is made (bench/quality/quality-part.ts).
 */

export type { QualityReport };

export interface BenchResults {
  mode: 'quick' | 'full';
  /** The command as run, flags included (older results files lack it). */
  command?: string;
  startedAt: string;
  machine: { node: string; platform: string; cpus: number; memoryGiB: number };
  model: string;
  quality: QualityReport[];
  /** Every corpus judged with the settings chosen on the others (bench/quality/loco-report.ts). */
  leftOut?: LeftOutSummary;
  latency?: LatencyReport;
  indexing?: IndexingReport;
  http?: HttpReport;
  coldstart?: ColdStartReport;
  scale?: ScaleReport;
  /** Wall-clock seconds of each part, and of the whole run. */
  seconds: Record<string, number>;
  /** The machine's 1-minute load average at the end of each part: other work on it slows every number. */
  loadAverage: Record<string, number>;
}
