import type { Embedder } from '../src/embedding/types.js';
import type { ChunkOptions } from './chunk/chunk.js';
import type { FileLimits } from './parse/chunk-corpus.js';
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
export interface BuildSummary extends SkipSummary {
  buildDir: string;
  documents: number;
  sections: number;
  knowledgeBases: string[];
  /** Section vectors computed in this build, and those taken from the cache. */
  sectionsEmbedded: number;
  sectionsReused: number;
  /** Files parsed and chunked in this build; the others kept their sections from the previous build. */
  documentsParsed: number;
  /** Files read but left out (a format other than Markdown or text whose parse failed or ran over the time limit), as `kb/path`. */
  skipped: string[];
  /** Markdown (or text) files whose parse failed or ran over the time limit, indexed as plain text (failed-parse.ts). */
  plainText: string[];
  /** Files not parsed, as an earlier build's parse of the same content ran over the limit: left out or plain text. */
  remembered: string[];
  changes: { added: string[]; changed: string[]; removed: string[] };
  seconds: number;
  /** True when the live build already was this index: nothing was written. */
  unchanged: boolean;
}
