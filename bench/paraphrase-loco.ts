import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { buildIndex } from '../indexer/build.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import type { Embedder } from '../src/embedding/types.js';
import { projectRoot } from '../src/project-root.js';
import type { SearchPolicy } from '../src/search/search-policy.js';
import { cacheDirOf } from '../src/settings/commands.js';
import { engineSystem } from './answers.js';
import { chooseFor, judge, type Judged, type Outcome } from './paraphrase-choice.js';
import { halfOf, loadQuerySet, type QuerySet } from './queries.js';
import { fullWindows, respond, RESULT_COUNT } from './response.js';
import { answerAt } from './shown.js';

/**
 * Leave-one-corpus-out choice of query-side settings for paraphrased questions (issue 39):
 * `npx tsx bench/paraphrase-loco.ts '<json list of SearchPolicy variants>' [--tag=<code version>]`.
 * Variant 0 is the baseline. Every variant runs on every labelled set; for each of the six tuned
 * corpora, the variant chosen on the other corpora's tuning halves (bench/paraphrase-choice.ts)
 * is judged on that corpus's held-out half. Sets beyond the six (rust-book, babel) only judge: never
 * trained on, judged on all their queries. Outcomes are cached per variant, set and `--tag`
 * (name the code version: a change to the engine must not reuse another's outcomes).
 */

/** The corpora choices are trained on; any other labelled set is a left-out judge only. */
const TRAINED = ['svc', 'argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo'];

const variantsSchema = z.array(z.record(z.string(), z.unknown())).min(1);

interface QueryOutcome extends Outcome {
  half: 'tuning' | 'heldout';
}

function allSets(root: string): QuerySet[] {
  const dir = join(root, 'bench', 'queries');
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
  const ordered = [...TRAINED.filter((n) => names.includes(n)), ...names.filter((n) => !TRAINED.includes(n)).sort()];
  return ordered.map((n) => loadQuerySet(join(dir, `${n}.json`))).filter((s) => existsSync(s.corpusDir));
}

async function outcomes(set: QuerySet, indexDir: string, embedder: Embedder, policy: SearchPolicy) {
  const system = await engineSystem('variant', indexDir, embedder, policy);
  const out: QueryOutcome[] = [];
  for (const q of set.queries) {
    const results = await system.search(q.query, RESULT_COUNT);
    const shown = respond(q.query, results).shown;
    out.push({
      id: q.id,
      style: q.style,
      half: halfOf(q.id),
      hit1: answerAt(q, shown, 1),
      hit5: answerAt(q, shown, 5),
      hit5Full: answerAt(q, fullWindows(results), 5),
    });
  }
  await system.close();
  return out;
}

async function cachedOutcomes(
  set: QuerySet,
  indexDir: string,
  embedder: Embedder,
  variant: Record<string, unknown>,
  cacheDir: string,
): Promise<QueryOutcome[]> {
  const key = createHash('sha256').update(JSON.stringify(variant)).digest('hex').slice(0, 12);
  const file = join(cacheDir, `${set.name}-${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as QueryOutcome[];
  const out = await outcomes(set, indexDir, embedder, variant as SearchPolicy);
  writeFileSync(file, JSON.stringify(out));
  return out;
}

const f = (x: number) => x.toFixed(3);

function row(name: string, chosen: number, before: Judged, after: Judged): string {
  const pair = (a: number, b: number) => `${f(a)} → ${f(b)}`;
  return `| ${name} | ${before.queries} (${before.paraphrases}) | #${chosen} | ${pair(before.paraHit5Full, after.paraHit5Full)} | ${pair(before.paraHit5, after.paraHit5)} | ${pair(before.otherHit1, after.otherHit1)} | ${pair(before.otherHit5, after.otherHit5)} | ${pair(before.otherHit5Full, after.otherHit5Full)} |`;
}

/** Tuning halves only, per variant and trained corpus: paraphrase windows Hit@5 / other Hit@1 / other Hit@5. */
function tuningTable(sets: QuerySet[], results: QueryOutcome[][][]): void {
  const trained = sets.map((s, i) => ({ s, i })).filter(({ s }) => TRAINED.includes(s.name));
  console.log(
    `\nTuning halves (para windows Hit@5 / other Hit@1 / other Hit@5): ${trained.map(({ s }) => s.name).join(', ')}`,
  );
  results.forEach((byCorpus, v) => {
    const cells = trained.map(({ i }) => {
      const j = judge(byCorpus[i]!.filter((q) => q.half === 'tuning'));
      return `${f(j.paraHit5Full)}/${f(j.otherHit1)}/${f(j.otherHit5)}`;
    });
    console.log(`#${v} ${cells.join('  ')}`);
  });
}

function report(sets: QuerySet[], results: QueryOutcome[][][], variants: unknown[]): void {
  const rows: { name: string; chosen: number; before: Judged; after: Judged }[] = [];
  sets.forEach((set, s) => {
    const trained = TRAINED.includes(set.name);
    const training = sets
      .map((other, o) => ({ other, o }))
      .filter(({ other, o }) => o !== s && TRAINED.includes(other.name))
      .map(({ other, o }) => ({
        corpus: other.name,
        byVariant: results.map((byVariant) => byVariant[o]!.filter((q) => q.half === 'tuning')),
      }));
    const chosen = chooseFor(set.name, training);
    const judged = (v: number) => results[v]![s]!.filter((q) => !trained || q.half === 'heldout');
    rows.push({
      name: trained ? set.name : `${set.name} (all)`,
      chosen,
      before: judge(judged(0)),
      after: judge(judged(chosen)),
    });
  });
  rows.sort((a, b) => a.after.paraHit5Full - b.after.paraHit5Full);
  variants.forEach((v, i) => console.log(`#${i} ${JSON.stringify(v)}`));
  console.log(
    '\nLeft-out, held-out halves (new sets: all queries), worst corpus first; before (#0) → after (chosen):\n',
  );
  console.log(
    '| corpus | n (para) | chosen | para Hit@5 windows | para Hit@5 12k | other Hit@1 | other Hit@5 12k | other Hit@5 windows |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(row(r.name, r.chosen, r.before, r.after));
  const gain = rows.map((r) => r.after.paraHit5Full - r.before.paraHit5Full);
  console.log(
    `\nmean paraphrase whole-window Hit@5 change: ${gain.reduce((a, b) => a + b, 0) / gain.length >= 0 ? '+' : ''}${f(gain.reduce((a, b) => a + b, 0) / gain.length)}`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const tag = process.argv.find((a) => a.startsWith('--tag='))?.slice('--tag='.length) ?? 'untagged';
  const variants = variantsSchema.parse(JSON.parse(args[0] ?? '[{}]'));
  const root = projectRoot();
  const cache = join(cacheDirOf(process.env), 'bench', 'paraphrase-loco', tag);
  mkdirSync(cache, { recursive: true });
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const sets = allSets(root);
  const dirs: string[] = [];
  for (const set of sets) {
    const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder });
    dirs.push(dir);
  }
  const results: QueryOutcome[][][] = [];
  for (const variant of variants) {
    const byCorpus: QueryOutcome[][] = [];
    for (const [i, set] of sets.entries()) byCorpus.push(await cachedOutcomes(set, dirs[i]!, embedder, variant, cache));
    results.push(byCorpus);
    console.error(`variant ${JSON.stringify(variant)} done`);
  }
  report(sets, results, variants);
  tuningTable(sets, results);
  await embedder.dispose();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
