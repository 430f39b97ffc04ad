import type { Command } from 'commander';
import { type IndexSettings, type ServeSettings, serveSettings } from '../settings/commands.js';
import { addSettingFlags } from '../settings/flags.js';
import type { Env } from '../settings/values.js';
import { KeptReindexer } from '../serve/reindex-process.js';
import type { RunningDocsServer, ServeOptions } from '../serve/serve.js';
import { parseCorpusSpec } from '../corpus-spec.js';

/**
 * `svc-docs serve`: build the index first when it is missing or stale (and this command owns it),
 * serve it, rebuild once if the model changed under it, and run until SIGINT or SIGTERM.
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
  // Build only for a corpus the user pointed at, or into the corpus's own index folder, so serving
  // someone's --index never overwrites it with the bundled corpus.
  const mayBuild = flags.build !== false && (settings.corpusGiven || settings.indexIsDefault);
  if (mayBuild) await buildIfStale(settings);
  // A rebuild while serving runs in a child process: in this one it would stall every request.
  const reindexer = flags.watch === true ? new KeptReindexer(settings, (line) => console.error(line)) : undefined;
  const running = await startServing(settings, reindexer, mayBuild);
  const { startupBanner } = await import('../serve/serve.js');
  console.error(startupBanner(running.http.url, settings.server));
  await untilSignalled();
  // Side by side: the server waits for a reindex under way, which the reindexer, let go, ends
  // within seconds (a build stopped before it switches CURRENT leaves the index as it was).
  await Promise.all([running.close(), reindexer?.close()]);
}

/** The indexer is loaded only here: a server that never builds (`--no-build`) starts without it. */
async function buildQuietly(settings: IndexSettings): Promise<void> {
  const cliBuild = await import('./build.js');
  await cliBuild.buildQuietly(settings);
}

async function buildIfStale(settings: IndexSettings): Promise<void> {
  const { corpusDirs, indexDir, model, fileLimits, vectorCacheDir } = settings;
  // Only the check: the parser and the rest of the indexer load if a build is needed.
  const [{ indexStatus }, { corpusRoots }] = await Promise.all([
    import('../../indexer/index-status.js'),
    import('../../indexer/sources/corpus-roots.js'),
  ]);
  // A git corpus is fetched here, as `svc-docs index` would, before the check.
  const roots = await corpusRoots(corpusDirs, {
    cacheDir: settings.cacheDir,
    gitTimeoutMs: settings.gitTimeoutMs,
    log: (l) => console.error(l),
  });
  const status = await indexStatus(roots, indexDir, model, fileLimits.maxFileBytes, vectorCacheDir);
  if (status.state === 'current') return;
  console.error(`${status.reason}: building it from ${corpusDirs.join(', ')}`);
  await buildQuietly(settings);
}

/** Serves the index; when the model files changed since the build (e.g. the default model was rebuilt), reindexes once. */
async function startServing(
  settings: ServeSettings,
  reindexer: KeptReindexer | undefined,
  mayBuild: boolean,
): Promise<RunningDocsServer> {
  const [{ serve }, { ModelMismatchError }] = await Promise.all([
    import('../serve/serve.js'),
    import('../search/engine.js'),
  ]);
  const start = () =>
    serve({
      indexDir: settings.indexDir,
      server: settings.server,
      engine: { model: settings.model, allowRemoteModels: settings.allowRemoteModels, cacheDir: settings.cacheDir },
      searchThreads: settings.searchThreads,
      watch: reindexer ? watchSpec(settings, reindexer) : undefined,
      log: (line) => console.log(line),
    });
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof ModelMismatchError) || !mayBuild || settings.model !== undefined) throw error;
    console.error(`${error.problem}: rebuilding the index`);
    await buildQuietly(settings);
    return await start();
  }
}

/** Folders are watched; git corpora are polled, through the reindexer: while serving, only it runs git. */
function watchSpec(settings: ServeSettings, reindexer: KeptReindexer): ServeOptions['watch'] {
  const specs = settings.corpusDirs.map(parseCorpusSpec);
  return {
    dirs: specs.flatMap((s) => (s.kind === 'folder' ? [s.path] : [])),
    pollMs: specs.some((s) => s.kind === 'git') ? settings.gitPollMs : undefined,
    rebuild: () => reindexer.rebuild(),
  };
}

function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
