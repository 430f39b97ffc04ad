import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { projectRoot } from '../../src/project-root.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { engineSystem } from './answers.js';
import { type QueryOutcome, reportLoco, TRAINED } from './paraphrase-report.js';
import { halfOf, loadQuerySet, type QuerySet } from '../queries.js';
import { fullWindows, respond, RESULT_COUNT } from './response.js';
import { answerAt } from './shown.js';

/**
 * Leave-one-corpus-out choice of query-side settings for paraphrased questions (issue 39):
 * `npx tsx bench/quality/paraphrase-loco.ts '<json list of SearchPolicy variants>' [--tag=<code version>]`.
 * Variant 0 is the baseline. Every variant runs on every labelled set; for each of the six tuned
 * corpora, the variant chosen on the other corpora's tuning halves (bench/quality/paraphrase-choice.ts)
 * is judged on that corpus's held-out half. Sets beyond the six (rust-book, babel) only judge: never
 * trained on, judged on all their queries. Outcomes are cached per variant, set and `--tag`
 * (name the code version: a change to the engine must not reuse another's outcomes).
 */

const variantsSchema = z.array(z.record(z.string(), z.unknown())).min(1);

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
  reportLoco(
    sets.map((set) => set.name),
    results,
    variants,
  );
  await embedder.dispose();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
