import { runProbe, spawnServer } from '../lib/child-process.js';
import { percentile } from '../lib/metrics.js';
import { startupReportSchema, type StartupReport } from './startup-probe.js';

/**
 * Cold start: from spawning `svc-docs serve` (compiled, --no-build) on an existing index to its
 * /readyz answering 200, polled every 5 ms from outside, as an orchestrator would. The parts
 * come from startup-probe.ts, which takes the same steps in a fresh process and times each.
 * The index was just built, so its files are in the page cache: this is a warm-disk start.
 */

export interface ColdStartReport {
  runs: number;
  /** Spawn → /readyz 200, ms: each run, and their median. */
  readyMs: number[];
  readyP50: number;
  /** Medians over the probe runs. */
  parts: StartupReport;
  probeRuns: number;
}

export async function measureColdStart(
  indexDir: string,
  firstQuery: string,
  runs: number,
  log: (line: string) => void,
): Promise<ColdStartReport> {
  const readyMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await spawnServer(indexDir, log);
    readyMs.push(server.readyMs);
    await server.stop();
  }
  const probeRuns = Math.min(runs, 3);
  const probes: StartupReport[] = [];
  for (let i = 0; i < probeRuns; i++)
    probes.push(
      await runProbe('speed/startup-probe', ['--index', indexDir, '--query', firstQuery], startupReportSchema, { log }),
    );
  const median = (k: keyof StartupReport) =>
    percentile(
      probes.map((p) => p[k] ?? 0),
      50,
    );
  const parts: StartupReport = {
    importsMs: median('importsMs'),
    modelMs: median('modelMs'),
    indexMs: median('indexMs'),
    listenMs: median('listenMs'),
    readyMs: median('readyMs'),
    firstQueryMs: median('firstQueryMs'),
    ...(probes[0]?.modelChecksumMs === undefined ? {} : { modelChecksumMs: median('modelChecksumMs') }),
    indexReadMs: median('indexReadMs'),
    cliImportsMs: median('cliImportsMs'),
    ...(probes[0]?.poolMs === undefined ? {} : { poolMs: median('poolMs'), poolThreads: probes[0].poolThreads }),
  };
  log(
    `coldstart: ready in ${percentile(readyMs, 50).toFixed(0)} ms (median of ${runs}); model ${parts.modelMs.toFixed(0)} ms, index ${parts.indexMs.toFixed(0)} ms`,
  );
  return { runs, readyMs, readyP50: percentile(readyMs, 50), parts, probeRuns };
}
