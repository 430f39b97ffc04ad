import { readFileSync } from 'node:fs';
import { writeCacheFile } from '../../src/cache-file.js';

/**
 * The indexer's small caches beside the vector cache (corpus-digests.json, parse-failures.json):
 * one JSON object, `{ "format": n, "<field>": { "<key>": entry, … } }`. Only caches: a missing,
 * damaged or other-format file reads as empty, and one that cannot be written is left as it was.
 */

/** The entries `file` holds under `field`, those that are well-formed. */
export function readKeyedCache<T>(
  file: string,
  format: number,
  field: string,
  isEntry: (value: unknown) => value is T,
): Map<string, T> {
  const entries = new Map<string, T>();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const held = parsed[field];
    if (parsed.format === format && typeof held === 'object' && held !== null)
      for (const [key, entry] of Object.entries(held)) if (isEntry(entry)) entries.set(key, entry);
  } catch {
    // Nothing cached yet, or a damaged file.
  }
  return entries;
}

/** Writes the entries whole (to a temporary name, then renamed over `file`); false when that failed. */
export function writeKeyedCache<T>(file: string, format: number, field: string, entries: Map<string, T>): boolean {
  return writeCacheFile(file, JSON.stringify({ format, [field]: Object.fromEntries(entries) }));
}
