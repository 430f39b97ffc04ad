import { join } from 'node:path';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { openEngine } from '../../src/search/engine.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { assertTuningOnly, loadQuerySet, splitHalf } from '../queries.js';

/**
 * `npx tsx bench/quality/misses.ts [svc|argocd|vitest] [paraphrase|keyword|identifier|symptom|all]`: every
 * labelled query of the tuning half (never the held-out half: bench/queries/README.md) whose best page is not ranked first, with where that page ranks, the section it
 * was found by, and the two pages that beat it. For search-quality work, next to bench/quality/tune.ts
 * (run tune.ts once first: it builds the indexes this reads).
 */
const setName = process.argv[2] ?? 'argocd';
const style = process.argv[3] ?? 'paraphrase';
const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
const set = splitHalf(loadQuerySet(join(projectRoot(), 'bench', 'queries', `${setName}.json`)), 'tuning');
assertTuningOnly(set.queries);
const engine = await openEngine(join(cacheDirOf(process.env), 'bench', `${setName}-index`), { embedder });
for (const q of set.queries.filter((q) => style === 'all' || q.style === style)) {
  const d = await engine.searchDetailed(q.query, { limit: 50 });
  const keys = d.results.map((r) => `${r.source}/${r.path}`);
  const rel = new Map(q.relevant.map((r) => [r.doc, r.grade]));
  const rank = keys.findIndex((k) => rel.get(k) === 2);
  if (rank === 0) continue;
  console.log(`\n[${rank < 0 ? 'MISS' : rank + 1}] ${q.query}`);
  console.log(
    `   want: ${q.relevant
      .filter((r) => r.grade === 2)
      .map((r) => r.doc)
      .join(', ')}`,
  );
  if (rank > 0) {
    const r = d.results[rank]!;
    console.log(`   wanted got: ${r.score.toFixed(3)} :: ${r.sections.find((s) => s.isBest)?.headings.join(' > ')}`);
  }
  d.results
    .slice(0, 2)
    .forEach((r) =>
      console.log(
        `   top ${rel.get(`${r.source}/${r.path}`) ?? 0} ${r.path} :: ${r.sections.find((s) => s.isBest)?.headings.join(' > ')} (${r.score.toFixed(3)})`,
      ),
    );
}
await engine.close();
await embedder.dispose();
