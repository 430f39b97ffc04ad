import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter that prints, after the run, each test file's own time: its tests and hooks
 * (beforeAll's index builds and server starts included, which the JSON reporter's per-file times
 * leave out) plus importing it. scripts/time-tests.sh adds it to `npm test` and keeps the slowest
 * files' lines, `file-time <seconds> <file>`, slowest first.
 */
export default class FileTimesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const times = modules.map((module) => {
      const { duration, collectDuration, setupDuration, prepareDuration } = module.diagnostic();
      const seconds = (duration + collectDuration + setupDuration + prepareDuration) / 1000;
      return { file: relative(process.cwd(), module.moduleId), seconds };
    });
    times.sort((a, b) => b.seconds - a.seconds);
    const total = times.reduce((sum, t) => sum + t.seconds, 0);
    console.log(`file-times ${times.length} files, ${total.toFixed(0)} s summed over files`);
    for (const { file, seconds } of times) console.log(`file-time ${seconds.toFixed(1)} ${file}`);
  }
}
