/**
 * Checks labelled query sets against their corpus, without running any search engine:
 * every `doc` names an existing file, every labelled heading is a heading the chunker records
 * for that file (exact text, as `indexer/parse/chunk-file.ts` produces it: cleaned of its dialect's
 * markup), ids are unique, every query has a grade-2 page, and no page is listed twice in one
 * query. Doc keys are found as label-pages.ts says; a labelled file must be a page as the
 * indexer reads the corpus (not a fragment its site never renders), and its headings are those
 * of the page with what it includes.
 *
 *   npx tsx bench/queries/validate.ts [bench/queries/vitest.json ...]   (default: every *.json here)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { chunkFile } from '../../indexer/parse/chunk-file.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { indexedDoc } from '../queries.js';
import { docPath } from './label-pages.js';

interface Relevant {
  doc: string;
  grade: number;
  headings?: string[];
}
interface Query {
  id: string;
  style: string;
  query: string;
  relevant: Relevant[];
}

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
const STYLES = new Set(['paraphrase', 'keyword', 'identifier', 'symptom']);

function validate(file: string): string[] {
  const set = JSON.parse(readFileSync(file, 'utf8')) as { corpus: string; queries: Query[] };
  const corpusDir = resolve(repoRoot, set.corpus);
  const problems: string[] = [];
  const asIndexed = indexedDoc(corpusDir);
  const headingsOf = new Map<string, Set<string>>();
  // By the page's path in the corpus folder (a knowledge base at its top) and by `kb/path`.
  const pages = new Map(
    loadCorpus([corpusDir]).flatMap((d) => [
      [d.path, d.source],
      [`${d.kb}/${d.path}`, d.source],
    ]),
  );
  const ids = new Set<string>();
  for (const q of set.queries) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    if (!STYLES.has(q.style)) problems.push(`${q.id}: unknown style ${q.style}`);
    if (!q.relevant.some((r) => r.grade === 2)) problems.push(`${q.id}: no grade-2 page`);
    const docs = q.relevant.map((r) => r.doc);
    if (new Set(docs).size !== docs.length) problems.push(`${q.id}: a page is listed twice`);
    for (const r of q.relevant) {
      const path = docPath(corpusDir, r.doc);
      if (path === undefined) {
        problems.push(`${q.id}: no such doc ${r.doc}`);
        continue;
      }
      const source =
        pages.get(relative(corpusDir, path).split(sep).join('/')) ?? pages.get(r.doc) ?? pages.get(asIndexed(r.doc));
      if (source === undefined) {
        problems.push(`${q.id}: ${r.doc} is not a page as the corpus is read (label the pages that include it)`);
        continue;
      }
      let known = headingsOf.get(path);
      if (known === undefined) {
        const page = chunkFile({ path: r.doc, source }, DEFAULT_CHUNK_OPTIONS);
        known = new Set(page.sections.flatMap((s) => s.headings));
        headingsOf.set(path, known);
      }
      for (const h of r.headings ?? []) {
        if (!known.has(h)) problems.push(`${q.id}: ${r.doc} has no heading ${JSON.stringify(h)}`);
      }
    }
  }
  return problems;
}

const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(here)
        .filter((f) => f.endsWith('.json'))
        .map((f) => join(here, f));
let failed = false;
for (const file of files) {
  const problems = validate(file);
  console.log(`${basename(file)}: ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
  for (const p of problems) console.log(`  ${p}`);
  if (problems.length > 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
