#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { buildIndex, indexStatus, type BuildSummary } from '../indexer/build.js';
import { defaultIndexDir, ENV, resolveSettings, type CommonFlags, type CommonSettings } from './config.js';
import { clientConfigs } from './mcp/client-config.js';
import { renderSearch } from './mcp/render.js';
import { serverOptionsFromEnv } from './mcp/server-options.js';
import { ModelMismatchError, openEngine } from './search/engine.js';
import { reindexInChildProcess } from './reindex-process.js';
import { serve, startupBanner } from './serve.js';
import { progressReporter } from './cli-progress.js';

/**
 * The command line: the one place that wires the indexer and the server together. A user's
 * mistake prints one line and exits non-zero; no stack traces.
 */

class UsageError extends Error {}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const MAX_LISTED_CHANGES = 20;

function changeList({ added, changed, removed }: BuildSummary['changes']): string {
  const lines = [...added.map((d) => `  + ${d}`), ...changed.map((d) => `  ~ ${d}`), ...removed.map((d) => `  - ${d}`)];
  const shown = lines.slice(0, MAX_LISTED_CHANGES);
  if (lines.length > shown.length) shown.push(`  … and ${lines.length - shown.length} more`);
  return shown.map((l) => `\n${l}`).join('');
}

export function describeBuild(summary: BuildSummary): string[] {
  const { added, changed, removed } = summary.changes;
  if (summary.unchanged)
    return [
      `the index is up to date (${summary.documents} documents, ${summary.sections} sections; checked in ${summary.seconds.toFixed(1)} s): ${summary.buildDir}`,
    ];
  return [
    `indexed ${summary.documents} documents (${summary.documentsParsed} parsed, ${summary.documents - summary.documentsParsed} unchanged), ${summary.sections} sections from ${summary.knowledgeBases.join(', ')} in ${summary.seconds.toFixed(1)} s`,
    `section vectors: ${summary.sectionsEmbedded} embedded, ${summary.sectionsReused} reused from cache; ${summary.vocabularyEmbedded} new vocabulary words embedded`,
    `changes since the previous index: ${added.length} added, ${changed.length} changed, ${removed.length} removed` +
      changeList(summary.changes),
    `index written to ${summary.buildDir}`,
  ];
}

export function createProgram(): Command {
  const program = new Command();
  program
    .name('svc-docs')
    .description('Documentation search for AI coding assistants: index Markdown, serve it over MCP.')
    .showHelpAfterError();

  program
    .command('index')
    .description('build or update the index of a Markdown corpus (only changed sections are embedded again)')
    .option('--corpus <dir>', 'corpus folder (repeatable; default: ./corpus)', collect)
    .option('--out <dir>', 'index folder (default: ./index-data)')
    .option('--model <model>', 'Transformers.js model folder or Hub id (default: the bundled offline model)')
    .option('--allow-remote-models', 'let Transformers.js download a Hub model')
    .option('--vector-cache <dir>', `vector cache folder (or set ${ENV.vectorCache}; default: <cache>/vectors)`)
    .action(async (flags: CommonFlags) => {
      const settings = resolveSettings(flags);
      const progress = progressReporter(process.stderr);
      try {
        const summary = await buildIndex({
          corpusDirs: settings.corpusDirs,
          outDir: settings.indexDir,
          model: settings.model,
          allowRemoteModels: settings.allowRemoteModels,
          vectorCacheDir: settings.vectorCacheDir,
          limits: settings.fileLimits,
          onProgress: progress.update,
          log: (line) => progress.log(line),
        });
        progress.stop();
        for (const line of describeBuild(summary)) console.log(line);
      } finally {
        progress.stop();
      }
    });

  program
    .command('serve')
    .description('serve the index over MCP (Streamable HTTP at /docs); builds it first when missing or stale')
    .option('--index <dir>', 'index folder (default: ./index-data)')
    .option(
      '--corpus <dir>',
      'corpus folder to build from when the index is missing or stale (repeatable; default: ./corpus)',
      collect,
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
    .action(async (flags: CommonFlags & ServeFlags) => {
      const settings = resolveSettings(flags);
      const server = serverOptionsFromEnv(process.env, {
        port: flags.port,
        host: flags.host,
        authToken: flags.authToken,
        authTokenFile: flags.authTokenFile,
        oauthIssuer: flags.oauthIssuer,
        oauthJwksUrl: flags.oauthJwksUrl,
        oauthJwksFile: flags.oauthJwksFile,
        oauthResource: flags.oauthResource,
        oauthScope: flags.oauthScope,
        allowedHosts: splitList(flags.allowedHosts),
        allowedOrigins: splitList(flags.allowedOrigins),
      });
      // Build only for a corpus the user pointed at, or the default pairing ./corpus → ./index-data,
      // so serving someone's --index never overwrites it with the bundled corpus.
      const ownsIndex = settings.corpusGiven || settings.indexDir === defaultIndexDir();
      const rebuild = () => buildQuietly(settings);
      if (flags.build !== false && ownsIndex) {
        const status = await indexStatus(
          settings.corpusDirs,
          settings.indexDir,
          settings.model,
          settings.fileLimits.maxFileBytes,
        );
        if (status.state !== 'current') {
          console.error(`${status.reason}: building it from ${settings.corpusDirs.join(', ')}`);
          await rebuild();
        }
      }
      const start = () =>
        serve({
          indexDir: settings.indexDir,
          server,
          engine: { model: settings.model, allowRemoteModels: settings.allowRemoteModels },
          searchThreads: settings.searchThreads,
          // A rebuild while serving runs in a child process: in this one it would stall every request.
          watch: flags.watch
            ? {
                dirs: settings.corpusDirs,
                rebuild: () => reindexInChildProcess(settings, (line) => console.error(line)),
              }
            : undefined,
          log: (line) => console.log(line),
        });
      let running;
      try {
        running = await start();
      } catch (error) {
        // The model files changed since the build (e.g. the default model was rebuilt): reindex once.
        if (
          !(error instanceof ModelMismatchError) ||
          flags.build === false ||
          !ownsIndex ||
          settings.model !== undefined
        )
          throw error;
        console.error(`${error.message.split(':')[0]}: rebuilding the index`);
        await rebuild();
        running = await start();
      }
      console.error(startupBanner(running.http.url, server.authToken !== undefined));
      await new Promise<void>((resolve) => {
        const stop = () => void running.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('config')
    .description('print the MCP client configuration for popular clients')
    .option('--url <url>', 'the server endpoint', 'http://127.0.0.1:8080/docs')
    .option('--auth', 'the server requires a bearer token (adds a placeholder header)')
    .action((flags: { url: string; auth?: boolean }) => {
      let url: URL;
      try {
        url = new URL(flags.url);
      } catch {
        throw new UsageError(`--url must be an absolute URL such as http://127.0.0.1:8080/docs, got "${flags.url}"`);
      }
      for (const c of clientConfigs(url.href, { auth: flags.auth ?? process.env[ENV.authToken] !== undefined })) {
        console.log(`# ${c.client} (${c.file})\n${c.text}\n`);
      }
    });

  program
    .command('search')
    .description('search the index, printing results as the SearchDocs tool renders them')
    .argument('<term...>', 'what to look for')
    .option('--index <dir>', 'index folder (default: ./index-data)')
    .option('--limit <n>', 'maximum number of results', positiveInt, 5)
    .option('--json', 'print results as JSON')
    .option('--allow-remote-models', 'let Transformers.js download the index model if missing')
    .action(async (words: string[], flags: CommonFlags & { limit: number; json?: boolean }) => {
      const term = words.join(' ').trim();
      if (term === '') throw new UsageError('the search term is empty: svc-docs search "webhook signature"');
      const settings = resolveSettings(flags);
      const engine = await openEngine(settings.indexDir, {
        model: settings.model,
        allowRemoteModels: settings.allowRemoteModels,
      });
      try {
        const results = await engine.search(term, { limit: flags.limit });
        if (flags.json) console.log(JSON.stringify(results, null, 2));
        else console.log(renderSearch(term, results, { budgetChars: serverOptionsFromEnv().responseBudgetChars }).text);
      } finally {
        await engine.close();
      }
    });

  return program;
}

interface ServeFlags {
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

function splitList(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function buildQuietly(settings: CommonSettings): Promise<void> {
  const summary = await buildIndex({
    corpusDirs: settings.corpusDirs,
    outDir: settings.indexDir,
    model: settings.model,
    allowRemoteModels: settings.allowRemoteModels,
    vectorCacheDir: settings.vectorCacheDir,
    limits: settings.fileLimits,
    log: (line) => console.error(line),
  });
  console.error(describeBuild(summary)[0]);
}

export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      return code === 'commander.helpDisplayed' || code === 'commander.version' ? 0 : 2;
    }
    console.error(`svc-docs: ${(error as Error).message}`);
    // The one setting read before any other is parsed: a bad setting's error must obey it too.
    if (/^(1|true|yes|on)$/i.test(process.env[ENV.debug] ?? '')) console.error(error);
    return 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && /cli\.(ts|js)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
