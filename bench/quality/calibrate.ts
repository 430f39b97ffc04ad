import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { RelevanceThresholds } from '../../src/index/manifest.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine } from '../../src/search/engine.js';
import { assertTuningOnly, judgements, labelledSets, splitHalf } from '../queries.js';

/**
 * `npx tsx bench/quality/calibrate.ts`: relevance-label thresholds from the labelled sets' tuning halves
 * (held-out halves are only for reporting: bench/queries/README.md). Every result
 * of every query gives a (confidence, relevant?) pair, and the thresholds are where the
 * calibrated probability of relevance reaches each label's level. The output goes into
 * DEFAULT_RELEVANCE_THRESHOLDS (src/search/relevance.ts).
 */

/** The probability of relevance at which each label starts. */
export const LABEL_PROBABILITY = { excellent: 0.8, veryRelevant: 0.6, relevant: 0.4, moderate: 0.2 } as const;

/**
 * Isotonic regression (pool adjacent violators) of relevance on confidence gives P(relevant |
 * confidence), non-decreasing; each threshold is the lowest confidence whose probability reaches
 * the label's level. So "Excellent match" means: results like this were relevant ≥ 80 % of the time.
 */
export function calibrate(pairs: { confidence: number; relevant: boolean }[]): RelevanceThresholds {
  const sorted = [...pairs].sort((a, b) => a.confidence - b.confidence);
  const blocks: { sum: number; n: number; min: number }[] = [];
  for (const p of sorted) {
    blocks.push({ sum: p.relevant ? 1 : 0, n: 1, min: p.confidence });
    while (
      blocks.length > 1 &&
      blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n >=
        blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n
    ) {
      const last = blocks.pop()!;
      const prev = blocks[blocks.length - 1]!;
      prev.sum += last.sum;
      prev.n += last.n;
    }
  }
  const threshold = (level: number) => blocks.find((b) => b.sum / b.n >= level)?.min ?? Infinity;
  return {
    excellent: threshold(LABEL_PROBABILITY.excellent),
    veryRelevant: threshold(LABEL_PROBABILITY.veryRelevant),
    relevant: threshold(LABEL_PROBABILITY.relevant),
    moderate: threshold(LABEL_PROBABILITY.moderate),
  };
}

async function main(): Promise<void> {
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const pairs: { confidence: number; relevant: boolean }[] = [];
  for (const set of labelledSets(projectRoot()).map((s) => splitHalf(s, 'tuning'))) {
    assertTuningOnly([...set.queries, ...set.offTopic]);
    const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder });
    const engine = await openEngine(dir, { embedder });
    for (const q of set.queries) {
      const judged = judgements(q);
      const { results, confidences } = await engine.searchDetailed(q.query, { limit: 10 });
      results.forEach((r, i) =>
        pairs.push({ confidence: confidences[i]!, relevant: (judged.get(`${r.source}/${r.path}`) ?? 0) > 0 }),
      );
    }
    // Questions the docs do not cover: none of their results is relevant.
    for (const q of set.offTopic) {
      const { confidences } = await engine.searchDetailed(q.query, { limit: 10 });
      for (const confidence of confidences) pairs.push({ confidence, relevant: false });
    }
    await engine.close();
  }
  await embedder.dispose();
  console.log(JSON.stringify(calibrate(pairs), null, 2));
}

if (process.argv[1]?.endsWith('calibrate.ts')) void main();
