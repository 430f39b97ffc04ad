import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { openEngine } from '../../src/search/engine.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { covered } from '../../src/search/coverage.js';
import { DEFAULT_PASSAGES } from '../../src/search/passage-options.js';
import type { SearchResult } from '../../src/search/types.js';
import { assertTuningOnly, labelledSets, splitHalf } from '../queries.js';

/**
 * `npx tsx bench/quality/coverage-cuts.ts [--cuts=0.2,0.16,0.12]`: the coverage decision
 * (src/search/coverage.ts) on the tuning halves at several `coveredMin` cuts, per corpus: answerable
 * questions told "not covered" / off-topic questions answered as covered, and each question whose
 * decision differs across the cuts (C covered, - not, one mark per cut) with its first result's
 * confidence: the questions near the cut, for work on the decision. One search per question, cut
 * every way. Reads the indexes `npm run bench` built (`<cache>/bench/<set>-index`).
 */

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const cuts = (flag('cuts') ?? `${DEFAULT_PASSAGES.coveredMin},0.16,0.12`).split(',').map(Number);
if (cuts.some((c) => !Number.isFinite(c))) {
  console.error('coverage-cuts: --cuts must be numbers separated by commas');
  process.exit(2);
}

type Tally = { notCovered: number; offCovered: number }[];
const tally = (): Tally => cuts.map(() => ({ notCovered: 0, offCovered: 0 }));
const decide = (results: readonly SearchResult[], query: string) =>
  cuts.map((c) => covered(results, { ...DEFAULT_PASSAGES, coveredMin: c }, query));
const line = (name: string, t: Tally) =>
  `${name.padEnd(24)} ${cuts.map((c, i) => `${c}: ${t[i]!.notCovered}/${t[i]!.offCovered}`).join('  ')}`;

/** A question whose decision differs across the cuts: which, and the confidence read. */
function changed(kind: string, query: string, results: readonly SearchResult[], decisions: boolean[]): string | null {
  if (decisions.every((d) => d === decisions[0])) return null;
  const top = results[0];
  const where = top === undefined ? 'no result' : `${top.confidence.toFixed(3)} ${top.path}`;
  return `   ${kind} [${decisions.map((d) => (d ? 'C' : '-')).join('')}] ${where}: ${query}`;
}

const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
const total = tally();
console.log('per coveredMin cut: answerable told not covered / off-topic covered (tuning halves)');
for (const full of labelledSets(projectRoot())) {
  const set = splitHalf(full, 'tuning');
  assertTuningOnly([...set.queries, ...set.offTopic]);
  const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index`);
  if (!existsSync(join(dir, 'CURRENT'))) continue;
  const engine = await openEngine(dir, { embedder });
  const row = tally();
  const notes: string[] = [];
  for (const [kind, queries] of [
    ['answerable', set.queries],
    ['off-topic', set.offTopic],
  ] as const) {
    for (const q of queries) {
      const results = await engine.search(q.query, { limit: 5 });
      const decisions = decide(results, q.query);
      decisions.forEach((d, i) => {
        if (kind === 'answerable' && !d) row[i]!.notCovered++;
        if (kind === 'off-topic' && d) row[i]!.offCovered++;
      });
      const note = changed(kind, q.query, results, decisions);
      if (note !== null) notes.push(note);
    }
  }
  row.forEach((r, i) => {
    total[i]!.notCovered += r.notCovered;
    total[i]!.offCovered += r.offCovered;
  });
  console.log(line(`${set.name} (${set.queries.length}/${set.offTopic.length})`, row));
  for (const n of notes) console.log(n);
  await engine.close();
}
console.log(line('total', total));
await embedder.dispose();
