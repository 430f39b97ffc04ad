import { DEFAULT_WEB_LIMITS, type WebLimits } from './web.js';
import { parseServerOptions, type ServerOptions } from './server-options.js';
import { SETTINGS } from './catalogue.js';
import {
  defaultCacheDir,
  defaultCorpusDir,
  defaultIndexDir,
  defaultSearchThreads,
  defaultVectorCacheDir,
} from './defaults.js';
import { LOG_FORMATS, type LogFormat } from './observability.js';
import { readVariable, SettingsError } from './read-value.js';
import { readFlags, readValues, readVariables, overlay, type Env, type Flags, type Values } from './values.js';
import { serverOptionsOf } from './server.js';
import { readLastCorpus } from './last-corpus.js';

/**
 * Each command's settings: its flags and variables read once, at the edge (the CLI), into one
 * object that is passed down. A command reads and checks its own settings only. A flag wins over
 * its variable, which wins over the default (the catalogue's, or defaults.ts's).
 */

/** What `svc-docs index` reads: what to build from, where to, and with what. */
export interface IndexSettings {
  corpusDirs: string[];
  /** The corpus was named (flag or variable) rather than defaulted: serve may build this index. */
  corpusGiven: boolean;
  indexDir: string;
  /** The index folder is the corpus's own (defaultIndexDir), not one named: serve may build it. */
  indexIsDefault: boolean;
  /** Model folder or Hub id; undefined = the bundled default (or, when serving, the index's own). */
  model: string | undefined;
  allowRemoteModels: boolean;
  /** Generated files: the default model, downloaded models, the indexes. */
  cacheDir: string;
  /** Where the indexer keeps computed vectors. */
  vectorCacheDir: string;
  fileLimits: { maxFileBytes: number; parseTimeoutMs: number };
  /** Each git command's time limit, for git corpora. */
  gitTimeoutMs: number;
  /** What one fetch of a git corpus may add, and its checkout may write (indexer/sources/git-bounds.ts). */
  gitMaxBytes: number;
  /** A website corpus's crawl bounds. */
  webLimits: WebLimits;
}

/** What `svc-docs serve` reads: the index's settings, the search pool's and the HTTP server's. */
export interface ServeSettings extends IndexSettings {
  /** Worker threads the server searches in; 0 = on the main thread. */
  searchThreads: number;
  /** How often serve --watch asks a git corpus's remote for a new commit. */
  gitPollMs: number;
  /** How often serve --watch crawls a website corpus again. */
  webPollMs: number;
  /** The log's format asked for; undefined lets the output decide (pretty on a terminal). */
  logFormat: LogFormat | undefined;
  server: ServerOptions;
}

/**
 * How a reading command (search, report, status) found its index: named by a flag or variable, the
 * one `serve` or `index` last used here (last-corpus.ts), or the bundled corpus's.
 */
export type IndexOrigin = 'named' | 'last' | 'default';

/** Which index a reading command reads, and why: its first line says so (src/cli/reads-line.ts). */
export interface ReadingSettings {
  indexDir: string;
  /** The corpus the index is of, as named or recorded; for a named --index alone, the default's. */
  corpusDirs: string[];
  origin: IndexOrigin;
  cacheDir: string;
}

/** What `svc-docs search` reads: which index, and how to render as the server does. */
interface SearchSettings extends ReadingSettings {
  model: string | undefined;
  allowRemoteModels: boolean;
  responseBudgetChars: number;
  maxResults: number;
}

/** Which index, from which corpus: shared by every command that reads an index. */
function whereFrom(values: Values) {
  const cacheDir = values.cacheDir ?? defaultCacheDir();
  const corpusGiven = values.corpus !== undefined && values.corpus.length > 0;
  const corpusDirs = corpusGiven ? values.corpus! : [defaultCorpusDir()];
  return {
    cacheDir,
    corpusDirs,
    corpusGiven,
    indexDir: values.index ?? defaultIndexDir(corpusDirs, cacheDir),
    indexIsDefault: values.index === undefined,
    model: values.model,
    allowRemoteModels: values.allowRemoteModels ?? SETTINGS.allowRemoteModels.default,
  };
}

/** A reading command's index: the one named, else the one last served or built here, else the default. */
function readingFrom(values: Values): ReadingSettings {
  const where = whereFrom(values);
  const named = where.corpusGiven || !where.indexIsDefault;
  const last = named ? undefined : readLastCorpus(where.cacheDir);
  if (last !== undefined)
    return { indexDir: last.index, corpusDirs: last.corpus, origin: 'last', cacheDir: where.cacheDir };
  const { indexDir, corpusDirs, cacheDir } = where;
  return { indexDir, corpusDirs, origin: named ? 'named' : 'default', cacheDir };
}

function indexSettingsOf(values: Values): IndexSettings {
  const where = whereFrom(values);
  return {
    ...where,
    vectorCacheDir: values.vectorCache ?? defaultVectorCacheDir(where.cacheDir),
    fileLimits: {
      maxFileBytes: values.maxFileBytes ?? SETTINGS.maxFileBytes.default,
      parseTimeoutMs: (values.parseTimeoutSeconds ?? SETTINGS.parseTimeoutSeconds.default) * 1000,
    },
    gitTimeoutMs: (values.gitTimeoutSeconds ?? SETTINGS.gitTimeoutSeconds.default) * 1000,
    gitMaxBytes: values.gitMaxBytes ?? SETTINGS.gitMaxBytes.default,
    webLimits: {
      maxPages: values.webMaxPages ?? DEFAULT_WEB_LIMITS.maxPages,
      maxPageBytes: values.webMaxPageBytes ?? DEFAULT_WEB_LIMITS.maxPageBytes,
      maxTotalBytes: values.webMaxTotalBytes ?? DEFAULT_WEB_LIMITS.maxTotalBytes,
      concurrency: values.webConcurrency ?? DEFAULT_WEB_LIMITS.concurrency,
      requestsPerSecond: values.webRequestsPerSecond ?? DEFAULT_WEB_LIMITS.requestsPerSecond,
      timeoutMs: (values.webTimeoutSeconds ?? SETTINGS.webTimeoutSeconds.default) * 1000,
    },
  };
}

/** How git and website corpora are fetched (indexer/sources/corpus-roots.ts): time limits, the crawl's bounds, a git checkout's size bounds. */
export function gitAndWeb(settings: IndexSettings) {
  const { gitTimeoutMs, webLimits, fileLimits, gitMaxBytes } = settings;
  return { gitTimeoutMs, webLimits, gitLimits: { maxFileBytes: fileLimits.maxFileBytes, maxTotalBytes: gitMaxBytes } };
}

export function indexSettings(flags: Flags, env: Env): IndexSettings {
  return indexSettingsOf(readValues('index', flags, env));
}

export function serveSettings(flags: Flags, env: Env): ServeSettings {
  const layers = { flags: readFlags('serve', flags), variables: readVariables('serve', env) };
  const values = overlay(layers.variables, layers.flags);
  return {
    ...indexSettingsOf(values),
    searchThreads: values.searchThreads ?? defaultSearchThreads(),
    gitPollMs: (values.gitPollSeconds ?? SETTINGS.gitPollSeconds.default) * 1000,
    webPollMs: (values.webPollSeconds ?? SETTINGS.webPollSeconds.default) * 1000,
    logFormat: logFormatOf(values.logFormat),
    server: serverOptionsOf(layers),
  };
}

function logFormatOf(value: string | undefined): LogFormat | undefined {
  if (value === undefined) return undefined;
  const format = LOG_FORMATS.find((f) => f === value.toLowerCase());
  if (format === undefined)
    throw new SettingsError(`${SETTINGS.logFormat.variable} (--log-format) must be json or pretty, got "${value}"`);
  return format;
}

export function searchSettings(flags: Flags, env: Env): SearchSettings {
  const values = readValues('search', flags, env);
  const { model, allowRemoteModels } = whereFrom(values);
  // Checked as the server checks them: the search renders as SearchDocs does.
  const { responseBudgetChars, maxResults } = parseServerOptions({
    responseBudgetChars: values.responseBudgetChars,
    maxResults: values.maxResults,
  });
  return { ...readingFrom(values), model, allowRemoteModels, responseBudgetChars, maxResults };
}

/** What `svc-docs report` (which index's recorded searches, and pages) and `status` read. */
export function readingSettings(command: 'report' | 'status', flags: Flags, env: Env): ReadingSettings {
  return readingFrom(readValues(command, flags, env));
}

/** What `svc-docs config` reads: whether the server takes a token (inline or from a file). */
export function configSettings(flags: Flags, env: Env): { authTokenSet: boolean } {
  const values = readValues('config', flags, env);
  return { authTokenSet: values.authToken !== undefined || values.authTokenFile !== undefined };
}

/** The cache folder the variables name, else the default: for tools beside the CLI (the benchmarks). */
export function cacheDirOf(env: Env): string {
  return readVariable('text', SETTINGS.cacheDir.variable, env) ?? defaultCacheDir();
}

/**
 * Errors print their stack trace too. Read on its own, before any other setting, and never
 * failing: an error in another setting must obey it (a bad value of its own is that command's
 * error to report).
 */
export function debugRequested(env: Env): boolean {
  try {
    return readVariable('boolean', SETTINGS.debug.variable, env) ?? SETTINGS.debug.default;
  } catch {
    return false;
  }
}
