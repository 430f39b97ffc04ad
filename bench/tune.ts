import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { buildIndex, type BuildOptions } from '../indexer/build.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import type { EngineOptions } from '../src/search/engine.js';
import { cacheDir, projectRoot } from '../src/paths.js';
import { engineRanker, evaluate } from './quality.js';
import { loadQuerySet } from './queries.js';

/**
 * `npx tsx bench/tune.ts '<json list of EngineOptions>' ['<json BuildOptions overrides>']`:
 * nDCG@10 of each setting on both labelled sets, overall and per hard query style. How the
 * shipped defaults were chosen (bench/results/tuning.md).
 */
async function main(): Promise<void> {
  const variants = JSON.parse(process.argv[2] ?? '[{}]') as EngineOptions[];
  const build = JSON.parse(process.argv[3] ?? '{}') as Partial<BuildOptions>;
  const tag = process.argv[3] ? `-${createHash('sha256').update(process.argv[3]).digest('hex').slice(0, 8)}` : '';
  const embedder = await loadEmbedder();
  const sets = ['svc', 'argocd'].map((n) => loadQuerySet(join(projectRoot(), 'bench', 'queries', `${n}.json`)));
  const dirs: string[] = [];
  for (const set of sets) {
    const dir = join(cacheDir(), 'bench', `${set.name}-index${tag}`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder, ...build });
    dirs.push(dir);
  }
  for (const variant of variants) {
    const cells: string[] = [];
    for (const [i, set] of sets.entries()) {
      const ranker = await engineRanker('t', dirs[i]!, embedder, variant);
      const r = await evaluate(set, ranker);
      await ranker.close();
      cells.push(`${set.name} ${r.overall.ndcg10.toFixed(3)} para ${r.byStyle.paraphrase!.ndcg10.toFixed(3)} sym ${r.byStyle.symptom!.ndcg10.toFixed(3)} hit1 ${r.overall.hit1.toFixed(3)}`);
    }
    console.log(`${cells.join(' | ')}  ${JSON.stringify(variant)}`);
  }
  await embedder.dispose();
}
void main();
