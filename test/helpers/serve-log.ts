/**
 * Reading what `svc-docs serve` logs on stdout: one JSON object per line (time, level, event
 * first). A line that is not one fails the test that reads it.
 */

export type LogEntry = Record<string, unknown> & { time: string; level: string; event: string };

export function logEntries(stdout: string): LogEntry[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const entry = JSON.parse(line) as LogEntry;
      if (typeof entry.time !== 'string' || typeof entry.level !== 'string' || typeof entry.event !== 'string')
        throw new Error(`not a log entry: ${line}`);
      return entry;
    });
}
