/**
 * Logging is a plain callback so apps can route it to pino, winston or a test
 * array. Entries never carry secrets: callers pass ids and statuses only.
 */

export interface PlatformLogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  /** Structured context: instance id, event id, status, attempt. Never credentials. */
  fields?: Record<string, string | number | boolean | undefined>;
}

export type PlatformLogger = (entry: PlatformLogEntry) => void;

/** Default: warnings and errors to stderr as one line each; info is dropped. */
export const consoleLogger: PlatformLogger = (entry) => {
  if (entry.level === 'info') return;
  const context = entry.fields === undefined ? '' : ` ${JSON.stringify(entry.fields)}`;
  console.error(`[svc-platform] ${entry.level}: ${entry.message}${context}`);
};
