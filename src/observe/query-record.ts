import { join } from 'node:path';
import { z } from 'zod';
import { jsonOf } from './log.js';
import type { SearchOutcome } from './search-outcome.js';

/**
 * One recorded search, as the query store keeps it (one JSON line each) and the docs-gap report
 * reads it: the term, when, how well the docs answered, which pages the model got, and the
 * client's name (no other client identity).
 */

export const queryRecordSchema = z.object({
  time: z.string(),
  term: z.string(),
  results: z.number().int().min(0),
  bestConfidence: z.number().min(0).max(1).optional(),
  notCovered: z.boolean(),
  chars: z.number().int().min(0),
  pages: z.array(z.string()),
  ms: z.number().min(0),
  client: z.string().optional(),
});
export type QueryRecord = z.infer<typeof queryRecordSchema>;

/** The store's file in an index folder, and the one it rotates into. */
export function queryStoreFiles(indexDir: string): { current: string; previous: string } {
  return { current: join(indexDir, 'queries.jsonl'), previous: join(indexDir, 'queries.1.jsonl') };
}

export function queryRecord(outcome: SearchOutcome, client: string | undefined, time: Date): QueryRecord {
  const { term, results, bestConfidence, notCovered, chars, pages, ms } = outcome;
  return {
    time: time.toISOString(),
    term,
    results,
    ...(bestConfidence === undefined ? {} : { bestConfidence: Math.round(bestConfidence * 1000) / 1000 }),
    notCovered,
    chars,
    pages,
    ms,
    ...(client === undefined ? {} : { client }),
  };
}

/** The records of a store file's text written at or after `since`; lines that are not records are skipped. */
export function parseQueryRecords(text: string, since?: Date): QueryRecord[] {
  return text.split('\n').flatMap((line) => {
    const parsed = queryRecordSchema.safeParse(jsonOf(line));
    const kept = parsed.success && (since === undefined || Date.parse(parsed.data.time) >= since.getTime());
    return kept ? [parsed.data] : [];
  });
}
