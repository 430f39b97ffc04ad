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
}

/** What `svc-docs serve` reads: the index's settings, the search pool's and the HTTP server's. */
export interface ServeSettings extends IndexSettings {
  /** Worker threads the server searches in; 0 = on the main thread. */
  searchThreads: number;
  /** How often serve --watch asks a git corpus's remote for a new commit. */
  gitPollMs: number;
  /** The log's format asked for; undefined lets the output decide (pretty on a terminal). */
  logFormat: LogFormat | undefined;
  server: ServerOptions;
}

/** What `svc-docs search` reads: which index, and how to render as the server does. */
export interface SearchSettings {
  indexDir: string;
  model: string | undefined;
  allowRemoteModels: boolean;
  cacheDir: string;
  responseBudgetChars: number;
  maxResults: number;
}

/** What `svc-docs report` reads: which index's recorded searches (and pages). */
export interface ReportSettings {
  indexDir: string;
}

/** What `svc-docs config` reads: whether the server takes a token (inline or from a file). */
export interface ConfigSettings {
  authTokenSet: boolean;
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
  };
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
  const { indexDir, model, allowRemoteModels, cacheDir } = whereFrom(values);
  // Checked as the server checks them: the search renders as SearchDocs does.
  const { responseBudgetChars, maxResults } = parseServerOptions({
    responseBudgetChars: values.responseBudgetChars,
    maxResults: values.maxResults,
  });
  return { indexDir, model, allowRemoteModels, cacheDir, responseBudgetChars, maxResults };
}

export function reportSettings(flags: Flags, env: Env): ReportSettings {
  return { indexDir: whereFrom(readValues('report', flags, env)).indexDir };
}

export function configSettings(flags: Flags, env: Env): ConfigSettings {
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
