import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { LexicalIndex } from '../../src/index/lexical-index.js';
import { openEngine } from '../../src/search/engine.js';
import { parseQuery } from '../../src/search/query.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { covered, foundOwnTerms } from '../../src/search/coverage.js';
import { DEFAULT_PASSAGES } from '../../src/search/passage-options.js';
import type { SearchResult } from '../../src/search/types.js';
import { type Half, HALVES, halfOf, labelledSets, type QuerySet } from '../queries.js';
import { fullWindows, respond } from './response.js';
import { answerAt } from './shown.js';

/**
 * `npx tsx bench/quality/not-covered.ts [--index-root=DIR] [--sets=a,b] [--half=tuning|heldout|all]`:
 * the coverage decision's cases, for work on it (src/search/coverage.ts). Lists every answerable
 * labelled question told "not covered" (false not-covered) and every off-topic question answered
 * as covered, each with its first result's confidence and, per own query term, whether the index
 * has it and its IDF share: the evidence the decision read. The tuning half by default; the
 * held-out half only when asked (`--half=heldout|all`), to list what the bench reports.
 * Reads indexes `npm run bench` built (`<cache>/bench/<set>-index`; `--index-root` elsewhere).
 */

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const indexRoot = flag('index-root') ?? join(cacheDirOf(process.env), 'bench');
const wanted = flag('sets')?.split(',');
const half = flag('half') ?? 'tuning';
if (half !== 'all' && !(HALVES as readonly string[]).includes(half)) {
  console.error(`not-covered: --half must be tuning, heldout or all, not ${JSON.stringify(half)}`);
  process.exit(2);
}
const inHalf = (id: string) => half === 'all' || halfOf(id) === (half as Half);

/**
 * Each own term of the query with its IDF share, `!` before those the coverage test counts absent
 * (as the engine does, but without its typo corrections: a misspelt word shows as absent here).
 */
function termEvidence(lexical: LexicalIndex, query: string): string {
  const hits = lexical.search(parseQuery(query).terms);
  const found = foundOwnTerms(query, hits.ownTerms, hits.ownTermsFound, (t) => lexical.hasTerm(t));
  return hits.ownTerms
    .map((t, i) => `${found & (1 << i) ? '' : '!'}${t}:${hits.ownTermShare[i]!.toFixed(2)}`)
    .join(' ');
}

/** The first result as the decision read it: its confidence, page and best section. */
function top(results: readonly SearchResult[]): string {
  const r = results[0];
  if (r === undefined) return 'no result';
  return `${r.confidence.toFixed(3)} ${r.path} :: ${r.sections.find((s) => s.isBest)?.headings.join(' > ') ?? ''}`;
}

/** Why a covered response was: a result sure enough, or a title or heading the query names. */
function reason(query: string, results: readonly SearchResult[]): string {
  return covered(results, { ...DEFAULT_PASSAGES, coveredMin: Number.POSITIVE_INFINITY }, query)
    ? 'names a heading'
    : 'confidence';
}

async function listSet(set: QuerySet, embedder: Awaited<ReturnType<typeof loadEmbedder>>): Promise<void> {
  const indexDir = join(indexRoot, `${set.name}-index`);
  if (!existsSync(join(indexDir, 'CURRENT'))) {
    console.log(`\n== ${set.name}: no index in ${indexDir} (npm run bench -- --parts=leftout builds it): skipped`);
    return;
  }
  const engine = await openEngine(indexDir, { embedder });
  const lexical = new LexicalIndex(engine.index.lexical, engine.index.manifest.lexical);
  let answerable = 0;
  let falseNot = 0;
  for (const q of set.queries.filter((x) => inHalf(x.id))) {
    answerable++;
    const results = await engine.search(q.query, { limit: 5 });
    const r = respond(q.query, results);
    if (r.covered) continue;
    falseNot++;
    const wantRank = results.findIndex((x) =>
      q.relevant.some((j) => j.grade === 2 && j.doc === `${x.source}/${x.path}`),
    );
    console.log(`\n[${set.name} ${halfOf(q.id)} ${q.style} ${q.id}] ${q.query}`);
    console.log(`   terms: ${termEvidence(lexical, q.query)}`);
    console.log(`   top: ${top(results)}`);
    console.log(
      `   answering page at ${wantRank + 1} (0: not in the top 5); whole-window hit@5 ${answerAt(q, fullWindows(results), 5)}`,
    );
  }
  const off: string[] = [];
  let offTotal = 0;
  for (const q of set.offTopic.filter((x) => inHalf(x.id))) {
    offTotal++;
    const results = await engine.search(q.query, { limit: 5 });
    const r = respond(q.query, results);
    if (r.covered)
      off.push(
        `   off-topic covered (${reason(q.query, results)}, ${r.chars} chars): ${q.query}\n      top: ${top(results)}\n      terms: ${termEvidence(lexical, q.query)}`,
      );
  }
  console.log(
    `\n== ${set.name}: ${falseNot} of ${answerable} answerable told not covered; ${off.length} of ${offTotal} off-topic covered`,
  );
  for (const line of off) console.log(line);
  await engine.close();
}

const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
for (const set of labelledSets(projectRoot()).filter((s) => wanted === undefined || wanted.includes(s.name)))
  await listSet(set, embedder);
await embedder.dispose();
