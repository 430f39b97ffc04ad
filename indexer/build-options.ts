import type { Embedder } from '../src/embedding/types.js';
import type { ChunkOptions } from './chunk/chunk.js';
import type { ChunkedCorpus, FileLimits } from './parse/chunk-corpus.js';
import type { KeptBuild } from './reindex/kept-build.js';
import type { SkipSummary } from './load/skipped-files.js';
import type { SourceOptions } from './sources/corpus-roots.js';
import type { EmbedOptions } from './write/embed.js';
import type { SettingsOptions } from './manifest-settings.js';

/** What a build is given (indexer/build.ts) and what it reports. */

export interface BuildOptions extends EmbedOptions, SettingsOptions {
  /** Folders, or git repositories `git+<url>[#<branch>][:<subfolder>]` (src/corpus-spec.ts). */
  corpusDirs: string[];
  /** Where git corpora are cloned and how long git may take (indexer/sources/corpus-roots.ts). */
  sources?: Omit<SourceOptions, 'log'>;
  outDir: string;
  /** Model folder or id; default: the bundled static model. Ignored when `embedder` is given. */
  model?: string;
  embedder?: Embedder;
  allowRemoteModels?: boolean;
  /** The cache folder (the default model, downloaded models); default: the svc-docs folder's `.cache`. */
  cacheDir?: string;
  /** Where cached vectors (and the corpus files' remembered digests) live; default `<cacheDir>/vectors`. */
  vectorCacheDir?: string;
  chunk?: ChunkOptions;
  /** Worker threads a large change set is parsed on; default one per core (indexer/parse/chunker-pool.ts). */
  parseWorkers?: number;
  /** Per-file size, parse-time and parser-memory limits (DEFAULT_FILE_LIMITS). */
  limits?: Partial<FileLimits>;
  log?: (line: string) => void;
  /** Files left out, and why (skipped-files.ts): warnings, where a caller tells them apart; default: `log`. */
  warn?: (line: string) => void;
  /** A long-lived indexer's last build, kept in memory for the next (kept-build.ts): read from and updated. */
  keep?: KeptBuild;
}

/** `leftOut` and `unsupported` (SkipSummary): every file left out with why, the parse's `skipped` among them. */
export interface BuildSummary
  extends SkipSummary,
    Pick<ChunkedCorpus, 'documentsParsed' | 'skipped' | 'plainText' | 'remembered'> {
  buildDir: string;
  documents: number;
  sections: number;
  knowledgeBases: string[];
  /** Section vectors computed in this build, and those taken from the cache. */
  sectionsEmbedded: number;
  sectionsReused: number;
  changes: { added: string[]; changed: string[]; removed: string[] };
  seconds: number;
  /** True when the live build already was this index: nothing was written. */
  unchanged: boolean;
}
