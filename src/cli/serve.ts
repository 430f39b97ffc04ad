import type { Command } from 'commander';
import { errorText, jsonLog, type Log, type LogLine } from '../observe/log.js';
import { chooseLogFormat, logWriter } from '../observe/pretty-log.js';
import { secretFree } from '../observe/redacted-log.js';
import { gitAndWeb, type IndexSettings, type ServeSettings, serveSettings } from '../settings/commands.js';
import { addSettingFlags } from '../settings/flags.js';
import { rememberCorpus } from '../settings/last-corpus.js';
import type { Env } from '../settings/values.js';
import { KeptReindexer } from '../serve/reindex-process.js';
import { checkCanListen } from '../serve/listen-error.js';
import type { RunningDocsServer, ServeOptions } from '../serve/serve.js';
import { checkCorpusFolders } from '../corpus-folder.js';
import { parseCorpusSpec } from '../corpus-spec.js';
import { readyEntry, startEntry } from './serve-events.js';

/**
 * `svc-docs serve`: build the index first when it is missing or stale (and this command owns it),
 * serve it, rebuild once if the model changed under it, and run until SIGINT or SIGTERM. Everything
 * it says goes to one structured log on stdout (JSON lines; pretty for people on a terminal).
 *
 * The server's modules (express, the MCP SDK, the search engine) are imported when `serve` runs,
 * not when the command line is set up: every other command (`index` above all, which
 * `serve --watch`'s reindexer runs too) would otherwise spend about 0.13 s loading them.
 */

export function addServeCommand(program: Command, env: Env): void {
  const command = program
    .command('serve')
    .description('serve the index over MCP (Streamable HTTP at /docs); builds it first when missing or stale');
  addSettingFlags(command, 'serve')
    .option('--no-build', 'never build the index; fail if it is missing')
    .option('--watch', 'rebuild and reload the index when the corpus changes (a git corpus is polled)')
    .action((flags: ServeFlags) => runServe(flags, env));
}

/** `serve`'s own flags; the setting flags are read by serveSettings. */
type ServeFlags = { build?: boolean; watch?: boolean };

async function runServe(flags: ServeFlags, env: Env): Promise<void> {
  const settings = serveSettings(flags, env);
  // Build only for a corpus the user pointed at, or into the corpus's own index folder, so
  // serving someone's --index never overwrites it with the bundled corpus.
  const mayBuild = flags.build !== false && (settings.corpusGiven || settings.indexIsDefault);
  // A corpus folder that is not there is a mistake in the command line: one line, before the log starts.
  if (mayBuild) checkCorpusFolders(settings.corpusDirs);
  const format = chooseLogFormat(settings.logFormat, process.stdout);
  const out = logWriter(format, process.stdout);
  const log = jsonLog(secretFree(out, [settings.server.authToken, settings.server.metricsToken]));
  log(startEntry(settings, format, flags.watch === true));
  let running: RunningDocsServer;
  // A rebuild while serving runs in a child process: in this one it would stall every request.
  const reindexer =
    flags.watch === true
      ? new KeptReindexer(settings, (line, kind) =>
          log({ level: kind === 'warning' ? 'warn' : 'info', event: 'reindex-output', message: line }),
        )
      : undefined;
  try {
    // A port in use is said before a build that can take minutes, not after it.
    await checkCanListen(settings.server.host, settings.server.port);
    if (mayBuild) await buildIfStale(settings, log);
    running = await startServing({ settings, reindexer, mayBuild, out, log });
  } catch (error) {
    log({ level: 'error', event: 'start-failed', error: errorText(error) });
    await reindexer?.close();
    throw error;
  }
  // Listened for before `ready` is said: a supervisor may stop the server as soon as it reads it.
  const signalled = untilSignalled();
  log(readyEntry(running.http.url, settings.server, running.live.current.summary()));
  // search, report and status read these docs from now on, unless told otherwise.
  rememberCorpus(settings, 'serve');
  const signal = await signalled;
  const stopping = performance.now();
  log({ event: 'stopping', signal });
  // Side by side: the server waits for a reindex under way, which the reindexer, let go, ends
  // within seconds (a build stopped before it switches CURRENT leaves the index as it was).
  await Promise.all([running.close(), reindexer?.close()]);
  log({ event: 'stopped', ms: Math.round(performance.now() - stopping) });
}

/** The indexer is loaded only here: a server that never builds (`--no-build`) starts without it. */
async function buildQuietly(settings: IndexSettings, log: Log): Promise<void> {
  const cliBuild = await import('./build.js');
  await cliBuild.buildQuietly(settings, log);
}

async function buildIfStale(settings: IndexSettings, log: Log): Promise<void> {
  const { corpusDirs, indexDir, model, fileLimits, vectorCacheDir } = settings;
  // Only the check: the parser and the rest of the indexer load if a build is needed.
  const [{ indexStatus }, { corpusRoots }, { checkHasDocuments }] = await Promise.all([
    import('../../indexer/reindex/index-status.js'),
    import('../../indexer/sources/corpus-roots.js'),
    import('../../indexer/load/load-corpus.js'),
  ]);
  // A git corpus is fetched here, as `svc-docs index` would, before the check.
  const roots = await corpusRoots(corpusDirs, {
    cacheDir: settings.cacheDir,
    ...gitAndWeb(settings),
    log: (l) => console.error(l),
  });
  const status = await indexStatus(roots, indexDir, model, fileLimits.maxFileBytes, vectorCacheDir);
  if (status.state === 'current') return;
  // A folder with nothing to index says so before the build announces itself and loads the parser.
  if (status.state === 'missing') checkHasDocuments(roots);
  const message = `${status.reason}: building it from ${corpusDirs.join(', ')}`;
  log({ event: 'index-build', reason: status.reason, corpus: corpusDirs, message });
  await buildQuietly(settings, log);
}

interface Serving {
  settings: ServeSettings;
  reindexer: KeptReindexer | undefined;
  mayBuild: boolean;
  /** The log's output (the HTTP layer removes secrets itself), and the log for this command's own entries. */
  out: LogLine;
  log: Log;
}

/** Serves the index; when the model files changed since the build (e.g. the default model was rebuilt), reindexes once. */
async function startServing({ settings, reindexer, mayBuild, out, log }: Serving): Promise<RunningDocsServer> {
  const [{ serve }, { ModelMismatchError }] = await Promise.all([
    import('../serve/serve.js'),
    import('../search/engine.js'),
  ]);
  const start = () =>
    // The settings carry indexDir, server and searchThreads, and the engine's options (model,
    // allowRemoteModels, cacheDir), under the server's own names.
    serve({ ...settings, engine: settings, watch: reindexer ? watchSpec(settings, reindexer) : undefined, log: out });
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof ModelMismatchError) || !mayBuild || settings.model !== undefined) throw error;
    log({
      level: 'warn',
      event: 'index-build',
      reason: error.problem,
      message: `${error.problem}: rebuilding the index`,
    });
    await buildQuietly(settings, log);
    return await start();
  }
}

/**
 * Folders are watched; git corpora and websites are polled (the shorter interval of those served),
 * through the reindexer: while serving, only it runs git or crawls.
 */
function watchSpec(settings: ServeSettings, reindexer: KeptReindexer): ServeOptions['watch'] {
  const specs = settings.corpusDirs.map(parseCorpusSpec);
  const polls = specs.flatMap((s) =>
    s.kind === 'git' ? [settings.gitPollMs] : s.kind === 'web' ? [settings.webPollMs] : [],
  );
  return {
    dirs: specs.flatMap((s) => (s.kind === 'folder' ? [s.path] : [])),
    pollMs: polls.length === 0 ? undefined : Math.min(...polls),
    rebuild: () => reindexer.rebuild(),
  };
}

function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
