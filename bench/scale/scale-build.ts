import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildIndex } from '../../indexer/build.js';
import type { BuildProgress } from '../../indexer/write/embed.js';
import { embeddingText } from '../../indexer/write/section-text.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { readIndex } from '../../src/index/open-index.js';
import { memoryOf } from '../lib/child-process.js';
import { ReplicaEmbedder } from './scale-corpus.js';
import { runIfEntry } from '../lib/probe-entry.js';
import { cacheDirOf } from '../../src/settings/commands.js';

/**
 * Child process of the scale benchmark: one full build (buildIndex, as `svc-docs index` runs it, with the HNSW graph)
 * of a grown corpus, in a heap of its own so its peak memory is its own. With `--base-index`
 * (the near-duplicate stress corpus), copies of the base corpus's sections reuse the base index's
 * vectors (ReplicaEmbedder); without it (the distinct corpus) every section is embedded for real.
 *
 * node bench/scale/scale-build.js --corpus DIR… --out DIR [--base-index DIR] --vector-cache DIR
 */

export const scaleBuildReportSchema = z.object({
  seconds: z.number(),
  documents: z.number(),
  sections: z.number(),
  embedded: z.number(),
  exact: z.number(),
  reused: z.number(),
  peakRssMB: z.number(),
  /** The index was already this build (nothing written): its figures are the build's that wrote it. */
  unchanged: z.boolean().default(false),
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
      `${phase} ${done}/${total} at ${((performance.now() - started) / 1000).toFixed(0)} s, RSS ${rss} MB${done === total ? '; BM25, HNSW and writing next' : ''}`,
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
  const baseIndex = values['base-index'];
  const embedder = baseIndex === undefined ? undefined : await replicaOf(inner, baseIndex);
  const summary = await buildIndex({
    corpusDirs: values.corpus!,
    outDir: values.out!,
    embedder: embedder ?? inner,
    vectorCacheDir: values['vector-cache']!,
    // The probe compares graph and exact search at scale: the graph is built as a sentence model's build writes it.
    vectorGraph: true,
    log: (line) => console.error(line),
    onProgress: progressLog(),
  });
  const report: ScaleBuildReport = {
    seconds: summary.seconds,
    documents: summary.documents,
    sections: summary.sections,
    ...(embedder?.stats ?? {
      embedded: summary.sectionsEmbedded,
      exact: 0,
      reused: 0,
    }),
    peakRssMB: memoryOf('self').peakMB,
    unchanged: summary.unchanged,
  };
  await (embedder ?? inner).dispose();
  console.log(JSON.stringify(report));
}

/** The real embedder, giving copies of the base index's sections their original's vector (with noise). */
async function replicaOf(inner: Embedder, baseIndex: string): Promise<ReplicaEmbedder> {
  const embedder = new ReplicaEmbedder(inner);
  const base = await readIndex(baseIndex);
  base.sections
    .slice()
    .forEach((s, i) =>
      embedder.remember(
        embeddingText(base.documents[s.doc]!.title, s),
        base.vectors.data.subarray(i * base.vectors.dims, (i + 1) * base.vectors.dims),
      ),
    );
  base.sections.close();
  return embedder;
}

runIfEntry('scale/scale-build.js', main);
