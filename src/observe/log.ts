/**
 * The operator log's one shape: every line a JSON object whose first fields are `time` (ISO 8601),
 * `level` and `event`, then the event's own fields. Modules on the server path write lines through
 * a LogLine sink; the sink decides where they go, hides secrets (redacted-log.ts) and may show them
 * to people (pretty-log.ts).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  event: string;
  /** Defaults to info. */
  level?: LogLevel;
  [field: string]: unknown;
}

/** Where finished lines go (one JSON object each, no newline). */
export type LogLine = (line: string) => void;
/** A structured log: one entry becomes one line. */
export type Log = (entry: LogEntry) => void;

/** The line for an entry: time, level and event first, undefined fields left out. */
export function logLine(entry: LogEntry, now: Date = new Date()): string {
  const { event, level = 'info', ...fields } = entry;
  return JSON.stringify({ time: now.toISOString(), level, event, ...fields });
}

/** A structured log writing each entry as one line to `sink`. */
export function jsonLog(sink: LogLine): Log {
  return (entry) => sink(logLine(entry));
}

/** The message of an error, for a log field (never its stack: it may quote secrets from deeper down). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A line's JSON value, or undefined for a line that is not JSON (an empty one, a line cut short). */
export function jsonOf(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
