/**
 * Checks the answer labels of labelled query sets against the pages themselves, without running
 * any search engine: every `doc` exists, every answer phrase compiles and occurs in its page's
 * text (as the indexer reads it: the files it includes put in place, an HTML page converted to
 * Markdown, then as bench/queries/answer-text.ts normalises it), every grade-2 page has at least one phrase, ids
 * (queries and off-topic questions together) are unique, and off-topic questions are given.
 *
 *   npx tsx bench/queries/check-answers.ts bench/queries/vitest.json [...]
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { asMarkdown, prepareFile } from '../../indexer/parse/chunk-file.js';
import { answerPattern, answerText } from './answer-text.js';
import { docPath } from './label-pages.js';

interface Relevant {
  doc: string;
  grade: number;
  headings?: string[];
  answers?: string[];
}
interface QueryFile {
  corpus: string;
  queries: { id: string; query: string; relevant: Relevant[] }[];
  offTopic?: { id: string; query: string }[];
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function check(file: string): Promise<string[]> {
  const set = JSON.parse(readFileSync(file, 'utf8')) as QueryFile;
  const corpusDir = resolve(repoRoot, set.corpus);
  const problems: string[] = [];
  // Pages with their includes expanded, by `<knowledge base>/<path>` (a Hugo page's `_common`
  // fragment holds its answer); a page the site never renders falls back to its own file.
  const pages = new Map(loadCorpus([corpusDir], { warn: () => {} }).map((d) => [`${d.kb}/${d.path}`, d.source]));
  const ids = new Set<string>();
  const seen = (id: string) => {
    if (ids.has(id)) problems.push(`${id}: duplicate id`);
    ids.add(id);
  };
  for (const q of set.queries) {
    seen(q.id);
    for (const r of q.relevant) {
      const path = docPath(corpusDir, r.doc);
      if (path === undefined) {
        problems.push(`${q.id}: no such doc ${r.doc}`);
        continue;
      }
      if (r.grade === 2 && (r.answers ?? []).length === 0) problems.push(`${q.id}: ${r.doc} (grade 2) has no answers`);
      await prepareFile(path);
      const source = pages.get(r.doc) ?? readFileSync(path, 'utf8');
      const text = answerText(asMarkdown({ path, source }).markdown);
      for (const a of r.answers ?? []) {
        let pattern: RegExp;
        try {
          pattern = answerPattern(a);
        } catch (error) {
          problems.push(`${q.id}: ${JSON.stringify(a)} is not a valid regex (${(error as Error).message})`);
          continue;
        }
        if (!pattern.test(text)) problems.push(`${q.id}: ${r.doc} has no ${JSON.stringify(a)}`);
      }
    }
  }
  for (const o of set.offTopic ?? []) seen(o.id);
  if ((set.offTopic ?? []).length < 20)
    problems.push(`only ${(set.offTopic ?? []).length} off-topic questions (want >= 20)`);
  return problems;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const problems = await check(file);
  failed ||= problems.length > 0;
  console.log(`${file}: ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
  for (const p of problems) console.log(`  ${p}`);
}
process.exitCode = failed ? 1 : 0;
