import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { AUTH_TOKEN_FILE_ENV, SERVER_ENV, type ServerOptions, serverOptionsFromEnv } from './mcp/server-options.js';
import { projectRoot } from './project-root.js';

/**
 * The one configuration path: flags and SVC_DOCS_* variables are read here and in the HTTP
 * server's option schema (src/mcp/server-options.ts, which this module's ENV table includes), once,
 * at the edge (the CLI), and passed down as objects. A flag wins over its variable, which wins over
 * the default. The README's configuration table lists every entry of ENV. The cache folder is the
 * one setting modules below the edge ask for themselves, through cacheDir() here (re-exported by
 * paths.ts), never by reading the variable.
 */

/** A setting that cannot be used: one line naming the variable and what it takes. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

const COMMON_ENV = {
  corpus: 'SVC_DOCS_CORPUS',
  index: 'SVC_DOCS_INDEX',
  model: 'SVC_DOCS_MODEL',
  allowRemoteModels: 'SVC_DOCS_ALLOW_REMOTE_MODELS',
  cacheDir: 'SVC_DOCS_CACHE_DIR',
  /** Separate from the cache folder so a container keeps vectors on its data volume while the prebuilt model stays in the image. */
  vectorCache: 'SVC_DOCS_VECTOR_CACHE_DIR',
  maxFileBytes: 'SVC_DOCS_MAX_FILE_BYTES',
  parseTimeout: 'SVC_DOCS_PARSE_TIMEOUT_SECONDS',
  searchThreads: 'SVC_DOCS_SEARCH_THREADS',
  /** Errors print their stack trace too (for bug reports). */
  debug: 'SVC_DOCS_DEBUG',
} as const;

/** Every environment variable svc-docs reads, by setting. */
export const ENV = { ...COMMON_ENV, ...SERVER_ENV } as const;

export interface CommonSettings {
  corpusDirs: string[];
  indexDir: string;
  /** Model folder or Hub id; undefined = the bundled default (or, when serving, the index's own). */
  model: string | undefined;
  allowRemoteModels: boolean;
  /** Where the indexer keeps computed vectors; undefined = <cache>/vectors. */
  vectorCacheDir: string | undefined;
  /** Per-file limits of the indexer; undefined = its defaults (1 MiB, 20 s). */
  fileLimits: { maxFileBytes: number | undefined; parseTimeoutMs: number | undefined };
  /** Worker threads the server searches in; 0 = on the main thread. Default: defaultSearchThreads(). */
  searchThreads: number;
  /** The corpus was named (flag or variable) rather than defaulted: serve may build this index. */
  corpusGiven: boolean;
  /** The index folder is the corpus's own (defaultIndexDir), not one named by a flag or variable: serve may build it. */
  indexIsDefault: boolean;
  debug: boolean;
}

/**
 * One search worker per core but the one the main thread needs: the main thread does a call's
 * sessions, protocol, JSON and rendering, several times the search's own CPU (bench: 2.5–4 ms of
 * server CPU per call against 0.5 ms in-process on Argo CD), so it bounds throughput on any
 * machine. On 2 cores a second worker only competed with it: over three interleaved pairs of
 * `npx tsx bench/run.ts --parts=http --search-threads=1|2`, 1 worker served 32 sessions at
 * 330–451 calls/s against 300–430 for 2, and the server's RSS after them was 183–184 MB against
 * 212–215 MB (each worker holds 22–35 MB of its own: V8 heap, vocabulary, typo dictionary).
 * In a container, `availableParallelism()` counts its CPU quota rather than the host's cores
 * where libuv finds one (cgroup v2 `cpu.max`, v1 `cpu,cpuacct`: libuv/libuv#4746, in Node 24's
 * libuv 1.52); `SVC_DOCS_SEARCH_THREADS` sets the pool where it does not.
 */
export function defaultSearchThreads(cores: number = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export function defaultCorpusDir(): string {
  return join(projectRoot(), 'corpus');
}

/**
 * Each corpus gets its own index folder, named by its folders' names and a hash of their resolved
 * paths: serving other docs (`serve --corpus ./docs`) builds beside, never over, the index another
 * server of the same checkout serves (which would reload and answer from those docs).
 */
export function defaultIndexDir(corpusDirs: readonly string[], cache: string = cacheDir()): string {
  const resolved = corpusDirs.map((dir) => resolve(dir));
  const hash = createHash('sha256').update(resolved.join('\n')).digest('hex').slice(0, 12);
  const names = resolved
    .map((dir) => basename(dir))
    .join('+')
    .replace(/[^A-Za-z0-9._+-]+/g, '_')
    .slice(0, 48);
  return join(cache, 'indexes', `${names || 'corpus'}-${hash}`);
}

/**
 * Generated, reusable artefacts (built models, the vector cache) live here, outside git. Read on
 * each call rather than once at startup: the embedder and the indexer ask for it deep down, where
 * no settings object reaches, and a caller may point it elsewhere for what it starts next.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[ENV.cacheDir]?.trim() || join(projectRoot(), '.cache');
}

/** Errors print their stack trace too. Read on its own because a bad setting's error must obey it. */
export function debugRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return truthy(env[ENV.debug]);
}

/** A bearer token is configured (inline or as a file): the printed client configurations then carry a placeholder header. */
export function authTokenSet(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ENV.authToken] !== undefined || env[AUTH_TOKEN_FILE_ENV] !== undefined;
}

/** A comma-separated flag or variable as its trimmed, non-empty entries; undefined when not given. */
function commaList(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Commander's collector for a repeatable flag (`--corpus a --corpus b`). */
export function repeatedFlag(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

export interface CommonFlags {
  corpus?: string[];
  index?: string;
  out?: string;
  model?: string;
  allowRemoteModels?: boolean;
  vectorCache?: string;
}

/** The `serve` command's flags; each wins over its SVC_DOCS_* variable. */
export interface ServeFlags {
  port?: number;
  host?: string;
  authToken?: string;
  authTokenFile?: string;
  oauthIssuer?: string;
  oauthJwksUrl?: string;
  oauthJwksFile?: string;
  oauthResource?: string;
  oauthScope?: string;
  allowedHosts?: string;
  allowedOrigins?: string;
  build?: boolean;
  watch?: boolean;
}

/** The HTTP server's options (SERVER_ENV, validated by its schema), with the flags given winning. */
export function serverSettings(flags: ServeFlags = {}, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  return serverOptionsFromEnv(env, {
    port: flags.port,
    host: flags.host,
    authToken: flags.authToken,
    authTokenFile: flags.authTokenFile,
    oauthIssuer: flags.oauthIssuer,
    oauthJwksUrl: flags.oauthJwksUrl,
    oauthJwksFile: flags.oauthJwksFile,
    oauthResource: flags.oauthResource,
    oauthScope: flags.oauthScope,
    allowedHosts: commaList(flags.allowedHosts),
    allowedOrigins: commaList(flags.allowedOrigins),
  });
}

export function resolveSettings(flags: CommonFlags, env: NodeJS.ProcessEnv = process.env): CommonSettings {
  const parseTimeoutSeconds = positiveNumber(env, ENV.parseTimeout);
  const envCorpus = commaList(env[ENV.corpus]);
  const corpusDirs =
    flags.corpus && flags.corpus.length > 0
      ? flags.corpus
      : envCorpus && envCorpus.length > 0
        ? envCorpus
        : [defaultCorpusDir()];
  const givenIndex = flags.out ?? flags.index ?? (env[ENV.index]?.trim() || undefined);
  return {
    corpusDirs,
    indexDir: givenIndex ?? defaultIndexDir(corpusDirs, cacheDir(env)),
    indexIsDefault: givenIndex === undefined,
    model: flags.model ?? (env[ENV.model]?.trim() || undefined),
    allowRemoteModels: flags.allowRemoteModels ?? truthy(env[ENV.allowRemoteModels]),
    vectorCacheDir: flags.vectorCache ?? (env[ENV.vectorCache]?.trim() || undefined),
    fileLimits: {
      maxFileBytes: positiveNumber(env, ENV.maxFileBytes),
      parseTimeoutMs: parseTimeoutSeconds === undefined ? undefined : parseTimeoutSeconds * 1000,
    },
    searchThreads: wholeNumber(env, ENV.searchThreads) ?? defaultSearchThreads(),
    corpusGiven:
      (flags.corpus !== undefined && flags.corpus.length > 0) || (envCorpus !== undefined && envCorpus.length > 0),
    debug: debugRequested(env),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new SettingsError(`${name} must be a whole number (0 = search on the main thread), got "${raw}"`);
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new SettingsError(`${name} must be a positive number, got "${raw}"`);
  return value;
}
