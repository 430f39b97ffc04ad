import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/** The labelled query sets in bench/queries (format in bench/queries/README.md). */

export const QUERY_STYLES = ['paraphrase', 'keyword', 'identifier', 'symptom'] as const;

const querySetSchema = z.object({
  corpus: z.string(),
  queries: z.array(
    z.object({
      id: z.string(),
      style: z.enum(QUERY_STYLES),
      query: z.string().min(1),
      relevant: z.array(z.object({ doc: z.string(), grade: z.number().int().min(1).max(2), headings: z.array(z.string()).optional() })).min(1),
    }),
  ),
});
export type QuerySet = z.infer<typeof querySetSchema> & { corpusDir: string; name: string };
export type LabelledQuery = QuerySet['queries'][number];

/** Reads a set; its `corpus` is resolved against the repository root (the folder above bench/). */
export function loadQuerySet(path: string): QuerySet {
  const parsed = querySetSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const repoRoot = resolve(dirname(path), '..', '..');
  const name = path.replace(/^.*\//, '').replace(/\.json$/, '');
  return { ...parsed, corpusDir: resolve(repoRoot, parsed.corpus), name };
}

export function judgements(query: LabelledQuery): Map<string, number> {
  return new Map(query.relevant.map((r) => [r.doc, r.grade]));
}
