/**
 * Every setting svc-docs has, in one list: its environment variable, its command-line flag, the
 * kind of value it takes, its default, one line of meaning and the commands that read it. The
 * command line registers its flags from here (flags.ts), each command reads the variables of its
 * own settings from here and no others (commands.ts), and docs/configuration.md's table is
 * written from here (table.ts, checked by a test).
 *
 * A default lives here and nowhere else: a component whose caller passes nothing (a test, a
 * library user) falls back to the same value by importing it. A default that is computed at run
 * time (from the machine or the corpus) is `shown` in words and computed in defaults.ts.
 *
 * To add a setting: one entry below. A server option also gets a field of the same name in the
 * HTTP server's schema (src/settings/server-options.ts, `.default(SETTINGS.<name>.default)`), from where
 * `serve` passes it on by itself; any other is read off `values.<name>` in commands.ts.
 */

import { OBSERVABILITY_SETTINGS } from './observability.js';
import { SERVER_LIMITS } from './limits.js';
import { OAUTH_SETTINGS } from './oauth.js';
import { WEB_SETTINGS } from './web.js';

/** The commands that read settings. */
export type CommandName = 'index' | 'serve' | 'search' | 'config' | 'report' | 'status';

/**
 * How a value is read, from a variable or a flag alike: `text` (trimmed; blank is unset),
 * `whole` (0, 1, 2 …), `positive` (a number above 0), `boolean` (1/0, true/false, yes/no,
 * on/off; as a flag, its presence), `list` (comma-separated; a repeatable flag).
 */
export type Kind = 'text' | 'whole' | 'positive' | 'boolean' | 'list';

export interface Setting {
  readonly variable: `SVC_DOCS_${string}`;
  /** Its flag (commander syntax), the same for every command that reads it or one per command. */
  readonly flag?: string | Readonly<Partial<Record<CommandName, string>>>;
  readonly kind: Kind;
  /** The value when neither the flag nor the variable is given. */
  readonly default?: string | number | boolean | readonly string[];
  /** The default in words, where it is computed at run time or there is none. */
  readonly shown?: string;
  readonly meaning: string;
  readonly commands: readonly CommandName[];
}

/** Host names a local server answers to: DNS rebinding uses any other name. */
const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;
const BUILDING = ['index', 'serve'] as const;
const READING = ['index', 'serve', 'search'] as const;
/** The commands that find an index (report reads the searches recorded beside it, status its manifest). */
const LOCATING = [...READING, 'report', 'status'] as const;

export const SETTINGS = {
  corpus: {
    variable: 'SVC_DOCS_CORPUS',
    flag: '--corpus <dir>',
    kind: 'list',
    shown:
      '`./corpus` (in the svc-docs folder); search, report and status: the corpus `serve` or `index` last used here, else that',
    meaning:
      'Corpus folders, git repositories `git+<url>[#<branch>][:<subfolder>]` or websites `https://…/start/` (docs/sources.md), one knowledge base each (comma-separated; the flag repeats)',
    commands: LOCATING,
  },
  index: {
    variable: 'SVC_DOCS_INDEX',
    flag: {
      index: '--out <dir>',
      serve: '--index <dir>',
      search: '--index <dir>',
      report: '--index <dir>',
      status: '--index <dir>',
    },
    kind: 'text',
    shown: "the corpus's own: `<cache>/indexes/<folder names>-<hash of their paths>`",
    meaning: 'Index folder',
    commands: LOCATING,
  },
  model: {
    variable: 'SVC_DOCS_MODEL',
    flag: { index: '--model <model>', serve: '--model <model>' },
    kind: 'text',
    shown: "the bundled offline model (serve, search: the index's own)",
    meaning: 'Transformers.js model folder or Hugging Face id; serve and search refuse an index built with another',
    commands: READING,
  },
  allowRemoteModels: {
    variable: 'SVC_DOCS_ALLOW_REMOTE_MODELS',
    flag: '--allow-remote-models',
    kind: 'boolean',
    default: false,
    meaning: 'Let Transformers.js download a Hugging Face model (into `<cache>/hf`)',
    commands: READING,
  },
  cacheDir: {
    variable: 'SVC_DOCS_CACHE_DIR',
    kind: 'text',
    shown: '`.cache` in the svc-docs folder',
    meaning: 'Generated files: the default model, the vector cache, the indexes, downloaded models',
    commands: LOCATING,
  },
  vectorCache: {
    variable: 'SVC_DOCS_VECTOR_CACHE_DIR',
    flag: '--vector-cache <dir>',
    kind: 'text',
    shown: '`<cache>/vectors`',
    meaning: 'Vectors already computed, reused by the next build (apart from the cache, to keep it on a data volume)',
    commands: BUILDING,
  },
  maxFileBytes: {
    variable: 'SVC_DOCS_MAX_FILE_BYTES',
    kind: 'positive',
    default: 1024 * 1024,
    meaning: 'A larger corpus file is skipped with a warning',
    commands: BUILDING,
  },
  parseTimeoutSeconds: {
    variable: 'SVC_DOCS_PARSE_TIMEOUT_SECONDS',
    kind: 'positive',
    default: 20,
    meaning:
      'A corpus file whose parse takes longer is indexed as plain text (Markdown, text) or skipped (other formats), with a warning',
    commands: BUILDING,
  },
  gitPollSeconds: {
    variable: 'SVC_DOCS_GIT_POLL_SECONDS',
    kind: 'positive',
    default: 300,
    meaning: "How often `serve --watch` asks a git corpus's remote for a new commit",
    commands: ['serve'],
  },
  gitTimeoutSeconds: {
    variable: 'SVC_DOCS_GIT_TIMEOUT_SECONDS',
    kind: 'positive',
    default: 600,
    meaning: 'Time limit of each git command (ls-remote, fetch, checkout) for a git corpus',
    commands: BUILDING,
  },
  gitMaxBytes: {
    variable: 'SVC_DOCS_GIT_MAX_BYTES',
    kind: 'positive',
    default: 1024 * 1024 * 1024,
    meaning:
      'What one fetch of a git corpus may add to its repository, and its checkout may write; a larger one is refused',
    commands: BUILDING,
  },
  searchThreads: {
    variable: 'SVC_DOCS_SEARCH_THREADS',
    kind: 'whole',
    shown: 'CPU cores (or the container quota) − 1, at least 1',
    meaning: 'Worker threads that search; 0 searches on the main thread',
    commands: ['serve'],
  },
  debug: {
    variable: 'SVC_DOCS_DEBUG',
    kind: 'boolean',
    default: false,
    meaning: 'An error prints its stack trace too (for bug reports)',
    commands: ['index', 'serve', 'search', 'config', 'report'],
  },
  host: {
    variable: 'SVC_DOCS_HOST',
    flag: '--host <host>',
    kind: 'text',
    default: '127.0.0.1',
    meaning: 'Address to bind (loopback: exposing the server is a deliberate choice)',
    commands: ['serve'],
  },
  port: {
    variable: 'SVC_DOCS_PORT',
    flag: '--port <n>',
    kind: 'whole',
    default: 8080,
    meaning: 'Port; 0 picks a free one',
    commands: ['serve'],
  },
  allowedHosts: {
    variable: 'SVC_DOCS_ALLOWED_HOSTS',
    flag: '--allowed-hosts <list>',
    kind: 'list',
    default: LOCALHOST_NAMES,
    meaning: 'Host header names accepted (port ignored; `*` any); the bound address is always accepted',
    commands: ['serve'],
  },
  allowedOrigins: {
    variable: 'SVC_DOCS_ALLOWED_ORIGINS',
    flag: '--allowed-origins <list>',
    kind: 'list',
    default: LOCALHOST_NAMES,
    meaning:
      'Origin headers accepted (browsers send one): host names, or exact origins like https://portal.example.com',
    commands: ['serve'],
  },
  authToken: {
    variable: 'SVC_DOCS_AUTH_TOKEN',
    flag: { serve: '--auth-token <token>' },
    kind: 'text',
    shown: 'none',
    meaning: 'Require `Authorization: Bearer <token>` (16+ visible ASCII characters, e.g. `openssl rand -hex 32`)',
    commands: ['serve', 'config'],
  },
  authTokenFile: {
    variable: 'SVC_DOCS_AUTH_TOKEN_FILE',
    flag: { serve: '--auth-token-file <path>' },
    kind: 'text',
    shown: 'none',
    meaning: 'Read the token from this file, so it is not visible in `ps` (a token given directly wins)',
    commands: ['serve', 'config'],
  },
  sessionIdleSeconds: {
    variable: 'SVC_DOCS_SESSION_IDLE_SECONDS',
    kind: 'whole',
    default: 30 * 60,
    meaning: 'A session with no request for this long is closed (its client starts a new one)',
    commands: ['serve'],
  },
  maxSessions: {
    variable: 'SVC_DOCS_MAX_SESSIONS',
    kind: 'whole',
    default: 1000,
    meaning: 'Open sessions at most; beyond, initialize gets 503 with Retry-After',
    commands: ['serve'],
  },
  ...SERVER_LIMITS,
  ...WEB_SETTINGS,
  maxBodyBytes: {
    variable: 'SVC_DOCS_MAX_BODY_BYTES',
    kind: 'whole',
    default: 256 * 1024,
    meaning: 'Largest request body accepted (at least 1024); larger gets 413',
    commands: ['serve'],
  },
  // About 3,000 tokens: enough for the sections of the results most likely to hold the answer,
  // where a whole 31-section window of five pages ran to 30,000 characters and more, mostly unread.
  responseBudgetChars: {
    variable: 'SVC_DOCS_RESPONSE_BUDGET_CHARS',
    kind: 'whole',
    default: 12_000,
    meaning: 'Largest SearchDocs text result in characters (at least 2000)',
    commands: ['serve', 'search'],
  },
  pageBudgetChars: {
    variable: 'SVC_DOCS_PAGE_BUDGET_CHARS',
    kind: 'whole',
    default: 32_000,
    meaning:
      'Largest resources/read answer in characters (at least 4000); a longer page is read in parts (`?part=2`, …)',
    commands: ['serve'],
  },
  maxResults: {
    variable: 'SVC_DOCS_MAX_RESULTS',
    kind: 'whole',
    default: 5,
    meaning: 'Documents per search at most (1-50; `svc-docs search --limit` overrides it)',
    commands: ['serve', 'search'],
  },
  replicaId: {
    variable: 'SVC_DOCS_REPLICA_ID',
    kind: 'text',
    shown: 'none',
    meaning: "This replica's name behind a proxy (1-32 letters, digits, - or _): it starts every session id",
    commands: ['serve'],
  },
  // OAuth resource-server mode (src/mcp/oauth/), and what the server tells operators (docs/observability.md).
  ...OAUTH_SETTINGS,
  ...OBSERVABILITY_SETTINGS,
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/** The settings `command` reads, by name. */
export function settingsOf(command: CommandName): SettingName[] {
  return (Object.keys(SETTINGS) as SettingName[]).filter((name) =>
    (SETTINGS[name].commands as readonly CommandName[]).includes(command),
  );
}

/** The flag `command` reads `name` from (commander syntax), if it has one. */
export function flagOf(name: SettingName, command: CommandName): string | undefined {
  const { flag }: Setting = SETTINGS[name];
  return typeof flag === 'string' ? flag : flag?.[command];
}
