import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkFile } from '../../indexer/parse/chunk-file.js';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { answerPattern, answerText } from './answer-text.js';
import { docPath } from './label-pages.js';

/**
 * Answer phrases that the chunker's cleaning lost: a grade-2 page's phrase that occurs in the
 * page as written but in none of its chunked sections means cleaning ate real content, or the
 * label quoted markup a reader never sees. Sections are joined (a phrase may cross a section
 * boundary in the page as written). No search engine runs.
 *
 *   npx tsx bench/queries/chunked-answers.ts bench/queries/hugo.json [...]
 */

interface Relevant {
  doc: string;
  grade: number;
  answers?: string[];
}
interface QueryFile {
  corpus: string;
  queries: { id: string; relevant: Relevant[] }[];
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The corpus folder a set reads, resolved against the repository root. */
export function corpusOf(file: string): string {
  return resolve(repoRoot, (JSON.parse(readFileSync(file, 'utf8')) as QueryFile).corpus);
}

export function lostAnswers(file: string): string[] {
  const set = JSON.parse(readFileSync(file, 'utf8')) as QueryFile;
  const corpusDir = resolve(repoRoot, set.corpus);
  const chunked = new Map<string, string>();
  const lost: string[] = [];
  for (const q of set.queries) {
    for (const r of q.relevant) {
      const path = r.grade === 2 ? docPath(corpusDir, r.doc) : undefined;
      if (path === undefined) continue;
      const source = readFileSync(path, 'utf8');
      let text = chunked.get(path);
      if (text === undefined) {
        const doc = chunkFile({ path: r.doc, source }, DEFAULT_CHUNK_OPTIONS);
        text = answerText(doc.sections.map((s) => s.text).join('\n'));
        chunked.set(path, text);
      }
      for (const phrase of r.answers ?? []) {
        const pattern = answerPattern(phrase);
        if (pattern.test(answerText(source)) && !pattern.test(text))
          lost.push(`${q.id}: ${r.doc} lost ${JSON.stringify(phrase)}`);
      }
    }
  }
  return lost;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const lost = lostAnswers(file);
    failed ||= lost.length > 0;
    console.log(`${file}: ${lost.length === 0 ? 'ok' : `${lost.length} phrase(s) lost`}`);
    for (const l of lost) console.log(`  ${l}`);
  }
  process.exitCode = failed ? 1 : 0;
}
