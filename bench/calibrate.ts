import { join } from 'node:path';
import { buildIndex } from '../indexer/build.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import type { RelevanceThresholds } from '../src/index/manifest.js';
import { cacheDir, projectRoot } from '../src/paths.js';
import { openEngine } from '../src/search/engine.js';
import { judgements, loadQuerySet } from './queries.js';

/**
 * `npx tsx bench/calibrate.ts`: relevance-label thresholds from the labelled sets. Every result
 * of every query gives a (confidence, relevant?) pair; going down from the top, each label's band
 * is made as wide as it can be while the results in it stay at least as often relevant as the
 * label promises. The output goes into DEFAULT_RELEVANCE_THRESHOLDS (src/search/relevance.ts).
 */

/** Share of results in each band that must be judged relevant. */
export const LABEL_PRECISION_TARGETS = { excellent: 0.8, veryRelevant: 0.6, relevant: 0.4, somewhatRelevant: 0.2 } as const;
const MIN_BAND = 10;

export function calibrate(pairs: { confidence: number; relevant: boolean }[]): RelevanceThresholds {
  const sorted = [...pairs].sort((a, b) => b.confidence - a.confidence);
  const out: Partial<Record<keyof RelevanceThresholds, number>> = {};
  let start = 0;
  let ceiling = Infinity;
  for (const label of Object.keys(LABEL_PRECISION_TARGETS) as (keyof RelevanceThresholds)[]) {
    const target = LABEL_PRECISION_TARGETS[label];
    let relevant = 0;
    let best = -1;
    for (let i = start; i < sorted.length; i++) {
      if (sorted[i]!.relevant) relevant++;
      const n = i - start + 1;
      // Cut only between distinct confidences.
      const boundary = i + 1 === sorted.length || sorted[i + 1]!.confidence < sorted[i]!.confidence;
      if (boundary && n >= MIN_BAND && relevant / n >= target) best = i;
    }
    if (best < 0) {
      out[label] = ceiling;
      continue;
    }
    ceiling = sorted[best]!.confidence;
    out[label] = ceiling;
    start = best + 1;
  }
  return out as RelevanceThresholds;
}

async function main(): Promise<void> {
  const embedder = await loadEmbedder();
  const pairs: { confidence: number; relevant: boolean }[] = [];
  for (const name of ['svc', 'argocd']) {
    const set = loadQuerySet(join(projectRoot(), 'bench', 'queries', `${name}.json`));
    const dir = join(cacheDir(), 'bench', `${set.name}-index`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder });
    const engine = await openEngine(dir, { embedder });
    for (const q of set.queries) {
      const judged = judgements(q);
      const { results, confidences } = await engine.searchDetailed(q.query, { limit: 10 });
      results.forEach((r, i) => pairs.push({ confidence: confidences[i]!, relevant: (judged.get(`${r.source}/${r.path}`) ?? 0) > 0 }));
    }
    await engine.close();
  }
  await embedder.dispose();
  console.log(JSON.stringify(calibrate(pairs), null, 2));
}

if (process.argv[1]?.endsWith('calibrate.ts')) void main();
