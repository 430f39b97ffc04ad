import type { Command } from 'commander';
import {
  type CommonFlags,
  type CommonSettings,
  ENV,
  repeatedFlag,
  resolveSettings,
  type ServeFlags,
  serverSettings,
} from '../config.js';
import type { ServerOptions } from '../mcp/server-options.js';
import { KeptReindexer } from '../serve/reindex-process.js';
import type { RunningDocsServer } from '../serve/serve.js';

/**
 * `svc-docs serve`: build the index first when it is missing or stale (and this command owns it),
 * serve it, rebuild once if the model changed under it, and run until SIGINT or SIGTERM.
 *
 * The server's modules (express, the MCP SDK, the search engine) are imported when `serve` runs,
 * not when the command line is set up: every other command (`index` above all, which
 * `serve --watch`'s reindexer runs too) would otherwise spend about 0.13 s loading them.
 */

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the index over MCP (Streamable HTTP at /docs); builds it first when missing or stale')
    .option('--index <dir>', "index folder (default: the corpus's own, under <cache>/indexes)")
    .option(
      '--corpus <dir>',
      'corpus folder to build from when the index is missing or stale (repeatable; default: ./corpus)',
      repeatedFlag,
    )
    .option('--port <n>', 'port (default 8080; 0 = any free port)', Number)
    .option('--host <host>', 'address to bind (default 127.0.0.1)')
    .option('--auth-token <token>', 'require Authorization: Bearer <token> (or set SVC_DOCS_AUTH_TOKEN)')
    .option(
      '--auth-token-file <path>',
      'read the token from a file, so it is not visible in ps (or set SVC_DOCS_AUTH_TOKEN_FILE)',
    )
    .option('--oauth-issuer <url>', 'accept OAuth access tokens (JWTs) from this issuer (or set SVC_DOCS_OAUTH_ISSUER)')
    .option('--oauth-jwks-url <url>', "the issuer's signing keys (JWKS) (or set SVC_DOCS_OAUTH_JWKS_URL)")
    .option('--oauth-jwks-file <path>', "the issuer's signing keys from a file (or set SVC_DOCS_OAUTH_JWKS_FILE)")
    .option(
      '--oauth-resource <url>',
      "this server as clients reach it, e.g. https://docs.internal/docs: the tokens' audience (or set SVC_DOCS_OAUTH_RESOURCE)",
    )
    .option('--oauth-scope <scope>', 'the scope a token must carry (default docs:read; or set SVC_DOCS_OAUTH_SCOPE)')
    .option('--allowed-hosts <list>', 'comma-separated Host names accepted (default localhost names)')
    .option('--allowed-origins <list>', 'comma-separated Origins accepted (default localhost names)')
    .option('--model <model>', 'the model the index must have been built with')
    .option('--allow-remote-models', 'let Transformers.js download a Hub model')
    .option('--no-build', 'never build the index; fail if it is missing')
    .option('--watch', 'rebuild and reload the index when the corpus changes')
    .option(
      '--vector-cache <dir>',
      `vector cache folder for builds (or set ${ENV.vectorCache}; default: <cache>/vectors)`,
    )
    .action(runServe);
}

async function runServe(flags: CommonFlags & ServeFlags): Promise<void> {
  const settings = resolveSettings(flags);
  const server = serverSettings(flags);
  // Build only for a corpus the user pointed at, or into the corpus's own index folder, so serving
  // someone's --index never overwrites it with the bundled corpus.
  const mayBuild = flags.build !== false && (settings.corpusGiven || settings.indexIsDefault);
  if (mayBuild) await buildIfStale(settings);
  // A rebuild while serving runs in a child process: in this one it would stall every request.
  const reindexer = flags.watch === true ? new KeptReindexer(settings, (line) => console.error(line)) : undefined;
  const running = await startServing(settings, server, reindexer, mayBuild);
  const { startupBanner } = await import('../serve/serve.js');
  console.error(startupBanner(running.http.url, server));
  await untilSignalled();
  // Side by side: the server waits for a reindex under way, which the reindexer, let go, ends
  // within seconds (a build stopped before it switches CURRENT leaves the index as it was).
  await Promise.all([running.close(), reindexer?.close()]);
}

/** The indexer is loaded only here: a server that never builds (`--no-build`) starts without it. */
async function buildQuietly(settings: CommonSettings): Promise<void> {
  const cliBuild = await import('./build.js');
  await cliBuild.buildQuietly(settings);
}

async function buildIfStale(settings: CommonSettings): Promise<void> {
  const { corpusDirs, indexDir, model, fileLimits, vectorCacheDir } = settings;
  // Only the check: the parser and the rest of the indexer load if a build is needed.
  const { indexStatus } = await import('../../indexer/index-status.js');
  const status = await indexStatus(corpusDirs, indexDir, model, fileLimits.maxFileBytes, vectorCacheDir);
  if (status.state === 'current') return;
  console.error(`${status.reason}: building it from ${corpusDirs.join(', ')}`);
  await buildQuietly(settings);
}

/** Serves the index; when the model files changed since the build (e.g. the default model was rebuilt), reindexes once. */
async function startServing(
  settings: CommonSettings,
  server: ServerOptions,
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
      server,
      engine: { model: settings.model, allowRemoteModels: settings.allowRemoteModels },
      searchThreads: settings.searchThreads,
      watch: reindexer ? { dirs: settings.corpusDirs, rebuild: () => reindexer.rebuild() } : undefined,
      log: (line) => console.log(line),
    });
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof ModelMismatchError) || !mayBuild || settings.model !== undefined) throw error;
    console.error(`${error.message.split(':')[0]}: rebuilding the index`);
    await buildQuietly(settings);
    return await start();
  }
}

function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
