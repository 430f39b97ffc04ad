import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { knowledgeBaseFolders } from '../indexer/load/corpus-walk.js';
import { knowledgeBase } from '../indexer/load/knowledge-base.js';
import { SkipLog } from '../indexer/load/skipped-files.js';

/** The labelled query sets in bench/queries (format in bench/queries/README.md). */

export const QUERY_STYLES = ['paraphrase', 'keyword', 'identifier', 'symptom'] as const;

const querySetSchema = z.object({
  corpus: z.string(),
  queries: z.array(
    z.object({
      id: z.string(),
      style: z.enum(QUERY_STYLES),
      query: z.string().min(1),
      relevant: z
        .array(
          z.object({
            doc: z.string(),
            grade: z.number().int().min(1).max(2),
            headings: z.array(z.string()).optional(),
            /** Case-insensitive regexes over the answering section's words (bench/queries/answer-text.ts). */
            answers: z.array(z.string().min(1)).optional(),
          }),
        )
        .min(1),
    }),
  ),
  /** Questions on subjects the docs do not cover: the response should say so, briefly. */
  offTopic: z.array(z.object({ id: z.string(), query: z.string().min(1) })).default([]),
});
export type QuerySet = z.infer<typeof querySetSchema> & { corpusDir: string; name: string };
export type LabelledQuery = QuerySet['queries'][number];

/**
 * Labels name each knowledge base by its folder (`vitest/guide/cli.md` for a corpus whose pages
 * sit at its top, `src/ch04-01-what-is-ownership.md` for the Rust book's source folder), while
 * the index names it as the indexer does (its site's or home page's title, "Vitest", "The Rust
 * Programming Language"): such keys are read as the indexer's name.
 */
export function indexedDoc(corpusDir: string): (doc: string) => string {
  const names = new Map<string, { dir: string; name: string }>();
  if (existsSync(corpusDir))
    for (const { dir } of knowledgeBaseFolders(corpusDir, new SkipLog(() => {}))) {
      const name = knowledgeBase(dir, { dir: corpusDir }).name;
      if (name !== basename(dir)) names.set(basename(dir), { dir, name });
    }
  return (doc) => {
    const folder = doc.split('/')[0]!;
    const kb = names.get(folder);
    const path = doc.slice(folder.length + 1);
    return kb !== undefined && existsSync(join(kb.dir, path)) ? `${kb.name}/${path}` : doc;
  };
}

function asIndexed(set: z.infer<typeof querySetSchema>, corpusDir: string): z.infer<typeof querySetSchema> {
  const rename = indexedDoc(corpusDir);
  return {
    ...set,
    queries: set.queries.map((q) => ({ ...q, relevant: q.relevant.map((r) => ({ ...r, doc: rename(r.doc) })) })),
  };
}

/** Reads a set; its `corpus` is resolved against the repository root (the folder above bench/). */
export function loadQuerySet(path: string): QuerySet {
  const parsed = querySetSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const repoRoot = resolve(dirname(path), '..', '..');
  const name = path.replace(/^.*\//, '').replace(/\.json$/, '');
  const corpusDir = resolve(repoRoot, parsed.corpus);
  return { ...asIndexed(parsed, corpusDir), corpusDir, name };
}

/** The corpora every benchmark reports, in this order; a set whose file is not there yet is skipped. */
export const SET_NAMES = ['svc', 'argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo', 'rust-book', 'babel'] as const;

export function labelledSets(repoRoot: string): QuerySet[] {
  return SET_NAMES.map((name) => join(repoRoot, 'bench', 'queries', `${name}.json`))
    .filter((path) => existsSync(path))
    .map(loadQuerySet);
}

export function judgements(query: LabelledQuery): Map<string, number> {
  return new Map(query.relevant.map((r) => [r.doc, r.grade]));
}

/**
 * Every labelled set is split once into a tuning half and a held-out half by each query's id
 * alone: the first byte of sha256(id) even → tuning, odd → held out. Neither position nor score
 * plays a part, so adding, removing or reordering queries never moves another one across, and no
 * result can. Settings are chosen on the tuning halves; only held-out halves are reported.
 */
export const HALVES = ['tuning', 'heldout'] as const;
export type Half = (typeof HALVES)[number];

export function halfOf(id: string): Half {
  return createHash('sha256').update(id, 'utf8').digest()[0]! % 2 === 0 ? 'tuning' : 'heldout';
}

/** The set restricted to one half; its name and corpus stay. */
export function splitHalf(set: QuerySet, half: Half): QuerySet {
  return {
    ...set,
    queries: set.queries.filter((q) => halfOf(q.id) === half),
    offTopic: set.offTopic.filter((q) => halfOf(q.id) === half),
  };
}

export class HeldOutQueryError extends Error {}

/** For the tuner: throws unless every query is in the tuning half, so held-out figures cannot be printed by mistake. */
export function assertTuningOnly(queries: readonly { id: string }[]): void {
  const leaked = queries.filter((q) => halfOf(q.id) !== 'tuning').map((q) => q.id);
  if (leaked.length > 0)
    throw new HeldOutQueryError(
      `refusing to evaluate held-out queries while tuning (${leaked.slice(0, 5).join(', ')}${leaked.length > 5 ? ', …' : ''}): tune on tuning halves only`,
    );
}
