import { currentBuildDir, readManifest } from '../index/read-index.js';
import type { ReadingSettings } from '../settings/commands.js';

/**
 * The first line of `search`, `report` and `status`: which knowledge bases, from which index
 * folder, and why those (named, last served or indexed here, or the bundled default). A user who
 * served their own docs sees at once whether the answer came from them.
 */

/** What an index holds, as its manifest says. */
export interface IndexHolds {
  knowledgeBases: readonly string[];
  documents: number;
}

const WHY: Record<ReadingSettings['origin'], (corpus: string) => string> = {
  named: () => 'as named (--corpus, --index or their SVC_DOCS_* variables)',
  last: (corpus) =>
    `the docs last served or indexed here${corpus === '' ? '' : ` (${corpus})`}; --corpus or --index reads others`,
  default: () => 'the bundled docs: nothing was served or indexed here yet, and no --corpus or --index was given',
};

export function readsLine(settings: ReadingSettings, holds: IndexHolds | undefined): string {
  const why = WHY[settings.origin](settings.corpusDirs.join(', '));
  if (holds === undefined) return `Reading ${settings.indexDir} (no index there yet): ${why}`;
  const kbs = holds.knowledgeBases.join(', ');
  return `Reading ${kbs} (${holds.documents} pages) from ${settings.indexDir}: ${why}`;
}

/** The index's manifest's knowledge bases and page count; undefined when there is no readable index. */
export async function indexHolds(indexDir: string): Promise<IndexHolds | undefined> {
  try {
    const buildDir = await currentBuildDir(indexDir);
    if (buildDir === undefined) return undefined;
    const { corpus } = await readManifest(buildDir);
    return { knowledgeBases: corpus.knowledgeBases, documents: corpus.documents };
  } catch {
    return undefined;
  }
}
