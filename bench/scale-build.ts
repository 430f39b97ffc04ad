import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildIndex } from '../indexer/build.js';
import type { BuildProgress } from '../indexer/embed.js';
import { embeddingText } from '../indexer/section-text.js';
import { loadEmbedder } from '../src/embedding/embedder.js';
import { readIndex } from '../src/index/read-index.js';
import { memoryOf } from './child-process.js';
import { ReplicaEmbedder } from './scale-corpus.js';
import { runIfEntry } from './probe-entry.js';
import { cacheDirOf } from '../src/settings/commands.js';

/**
 * Child process of the scale benchmark: one full build (buildIndex, as `svc-docs index` runs it)
 * of a grown corpus, in a heap of its own so its peak memory is its own. Copies of the base
 * corpus's sections reuse the base index's vectors (ReplicaEmbedder); the rest is the real build.
 *
 * node bench/scale-build.js --corpus DIR… --out DIR --base-index DIR --vector-cache DIR
 */

export const scaleBuildReportSchema = z.object({
  seconds: z.number(),
  documents: z.number(),
  sections: z.number(),
  embedded: z.number(),
  words: z.number(),
  exact: z.number(),
  reused: z.number(),
  peakRssMB: z.number(),
});
export type ScaleBuildReport = z.infer<typeof scaleBuildReportSchema>;

/** A line per tenth of each embedding phase, with the time since the build began (a 1M build is long and otherwise silent). */
function progressLog(): (progress: BuildProgress) => void {
  const started = performance.now();
  const shown = new Map<string, number>();
  return ({ phase, done, total }) => {
    const tenth = total === 0 ? 10 : Math.floor((10 * done) / total);
    if ((shown.get(phase) ?? -1) >= tenth) return;
    shown.set(phase, tenth);
    const rss = (process.memoryUsage.rss() / 2 ** 20).toFixed(0);
    console.error(
      `${phase} ${done}/${total} at ${((performance.now() - started) / 1000).toFixed(0)} s, RSS ${rss} MB${phase === 'embed-vocabulary' && done === total ? '; BM25, HNSW and writing next' : ''}`,
    );
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', multiple: true },
      out: { type: 'string' },
      'base-index': { type: 'string' },
      'vector-cache': { type: 'string' },
    },
  });
  const inner = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const embedder = new ReplicaEmbedder(inner);
  const base = await readIndex(values['base-index']!);
  base.sections.forEach((s, i) =>
    embedder.remember(
      embeddingText(base.documents[s.doc]!.title, s),
      base.vectors.data.subarray(i * base.vectors.dims, (i + 1) * base.vectors.dims),
    ),
  );
  const summary = await buildIndex({
    corpusDirs: values.corpus!,
    outDir: values.out!,
    embedder,
    vectorCacheDir: values['vector-cache']!,
    log: (line) => console.error(line),
    onProgress: progressLog(),
  });
  const report: ScaleBuildReport = {
    seconds: summary.seconds,
    documents: summary.documents,
    sections: summary.sections,
    ...embedder.stats,
    peakRssMB: memoryOf('self').peakMB,
  };
  await embedder.dispose();
  console.log(JSON.stringify(report));
}

runIfEntry('scale-build.js', main);
