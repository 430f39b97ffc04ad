import type { IndexContent } from '../../src/index/format.js';
import { currentBuildDir, readManifest } from '../../src/index/read-index.js';
import type { HnswVectorIndex } from '../../src/index/vector-index.js';
import type { PreviousBuild, PreviousData } from './previous-build.js';

/**
 * The build a long-lived indexer (`serve --watch`'s kept reindexer, src/serve/reindex-process.ts) wrote
 * last, kept in memory for its next build, which would otherwise read it back from index-data:
 * sections, postings, vectors and graph, checked against their checksums and decoded.
 * On the Argo CD corpus that was 35-60 ms of a 0.3 s one-file reindex.
 *
 * It is used only while CURRENT still names that build (any other writer, such as a one-shot
 * `svc-docs index`, makes the next build read from disk), and only once: `take` forgets it,
 * because the build that takes it updates the graph in place, and a build that fails halfway must
 * not leave the next one a graph that matches no build on disk.
 */
export class KeptBuild {
  private last: { previous: PreviousBuild; data: PreviousData } | undefined;

  /** The kept build, if CURRENT in `outDir` still names it; forgotten either way. */
  async take(outDir: string): Promise<{ previous: PreviousBuild; data: PreviousData } | undefined> {
    const last = this.last;
    this.last = undefined;
    if (last === undefined) return undefined;
    const live = await currentBuildDir(outDir).catch(() => undefined);
    return live === last.previous.buildDir ? last : undefined;
  }

  /** Keeps what a build just wrote to `buildDir` (its manifest read back: the checksums are the writer's). */
  async keep(buildDir: string, content: IndexContent, graph: HnswVectorIndex | undefined): Promise<void> {
    this.last = {
      previous: {
        buildDir,
        manifest: await readManifest(buildDir),
        documents: content.documents,
        sections: content.sections,
      },
      data: {
        lexical: content.lexical,
        graph,
        vectors: content.vectors.data,
      },
    };
  }
}
