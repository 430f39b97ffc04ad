import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { closeIdleChunker } from '../indexer/bounded-chunk.js';
import { buildIndex } from '../indexer/build.js';
import type { Embedder } from '../src/embedding/types.js';

/** Full build speed, and a one-file edit reindexed incrementally as a ratio to the full build. */

export interface IndexingReport {
  documents: number;
  sections: number;
  fullBuildSeconds: number;
  sectionsPerSecond: number;
  incrementalSeconds: number;
  incrementalSectionsEmbedded: number;
  /** Full build time over incremental reindex time (how many times faster the reindex is). */
  fullOverIncremental: number;
  /**
   * The same edit again, reindexed with a new parser worker (a one-shot `svc-docs index` starts
   * one; a build in a running process reuses the last build's: bounded-chunk.ts). Neither counts
   * process start or model load: the embedder is loaded once for the whole benchmark.
   */
  incrementalNewWorkerSeconds: number;
  noChangeSeconds: number;
}

function largestMarkdown(dir: string): string {
  let best = { path: '', size: -1 };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md') && statSync(p).size > best.size) best = { path: p, size: statSync(p).size };
    }
  };
  walk(dir);
  return best.path;
}

export async function measureIndexing(corpusDir: string, work: string, embedder: Embedder): Promise<IndexingReport> {
  rmSync(work, { recursive: true, force: true });
  // A private copy of the corpus, so the benchmark can edit one file; copied under its own folder
  // name so the knowledge base keeps its name.
  const corpus = join(work, 'corpus');
  cpSync(corpusDir, join(corpus, basename(corpusDir)), { recursive: true });
  const outDir = join(work, 'index');
  const vectorCacheDir = join(work, 'vectors');
  const full = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  const unchanged = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  const file = largestMarkdown(corpus);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/\n## /, '\n## Edited section\n\nA new paragraph about benchmark edits.\n\n## '),
  );
  const incremental = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  writeFileSync(file, readFileSync(file, 'utf8').replace('A new paragraph about benchmark edits.', 'Edited again.'));
  await closeIdleChunker();
  const newWorker = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  return {
    documents: full.documents,
    sections: full.sections,
    fullBuildSeconds: full.seconds,
    sectionsPerSecond: full.sections / full.seconds,
    incrementalSeconds: incremental.seconds,
    incrementalSectionsEmbedded: incremental.sectionsEmbedded,
    fullOverIncremental: full.seconds / incremental.seconds,
    incrementalNewWorkerSeconds: newWorker.seconds,
    noChangeSeconds: unchanged.seconds,
  };
}
