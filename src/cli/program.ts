import { Command, InvalidArgumentError, Option } from 'commander';
import { addServeCommand } from './serve.js';
import {
  authTokenSet,
  type CommonFlags,
  debugRequested,
  ENV,
  repeatedFlag,
  resolveSettings,
  serverSettings,
} from '../config.js';

/**
 * The command line: the one place that wires the indexer and the server together. A user's
 * mistake prints one line and exits non-zero; no stack traces. Each command is registered by a
 * function of its own; `serve`, the largest, lives in cli-serve.ts.
 */

class UsageError extends Error {
  override readonly name = 'UsageError';
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

export function createProgram(): Command {
  const program = new Command();
  program
    .name('svc-docs')
    .description('Documentation search for AI coding assistants: index Markdown, serve it over MCP.')
    .showHelpAfterError();
  addIndexCommand(program);
  addServeCommand(program);
  addConfigCommand(program);
  addSearchCommand(program);
  return program;
}

function addIndexCommand(program: Command): void {
  program
    .command('index')
    .description('build or update the index of a Markdown corpus (only changed sections are embedded again)')
    .option('--corpus <dir>', 'corpus folder (repeatable; default: ./corpus)', repeatedFlag)
    .option('--out <dir>', "index folder (default: the corpus's own, under <cache>/indexes)")
    .option('--model <model>', 'Transformers.js model folder or Hub id (default: the bundled offline model)')
    .option('--allow-remote-models', 'let Transformers.js download a Hub model')
    .option('--vector-cache <dir>', `vector cache folder (or set ${ENV.vectorCache}; default: <cache>/vectors)`)
    .addOption(new Option('--ipc', 'build on request from serve --watch, until it lets go').hideHelp())
    .action(async (flags: CommonFlags & { ipc?: boolean }) => {
      // The indexer is imported only by the commands that build: `serve --no-build` starts without it.
      const { buildOnRequest, buildWithProgress } = await import('./build.js');
      await (flags.ipc ? buildOnRequest : buildWithProgress)(resolveSettings(flags));
    });
}

function addConfigCommand(program: Command): void {
  program
    .command('config')
    .description('print the MCP client configuration for popular clients')
    .option('--url <url>', 'the server endpoint', 'http://127.0.0.1:8080/docs')
    .option('--auth', 'the server requires a bearer token (adds a placeholder header)')
    .action(printClientConfigs);
}

async function printClientConfigs(flags: { url: string; auth?: boolean }): Promise<void> {
  let url: URL;
  try {
    url = new URL(flags.url);
  } catch {
    throw new UsageError(`--url must be an absolute URL such as http://127.0.0.1:8080/docs, got "${flags.url}"`);
  }
  const { clientConfigs } = await import('./client-config.js');
  for (const c of clientConfigs(url.href, { auth: flags.auth ?? authTokenSet() })) {
    console.log(`# ${c.client} (${c.file})\n${c.text}\n`);
  }
}

type SearchFlags = CommonFlags & { limit: number; json?: boolean };

function addSearchCommand(program: Command): void {
  program
    .command('search')
    .description('search the index, printing results as the SearchDocs tool renders them')
    .argument('<term...>', 'what to look for')
    .option('--index <dir>', "index folder (default: the corpus's own, under <cache>/indexes)")
    .option('--corpus <dir>', 'the corpus whose own index to search (repeatable; default: ./corpus)', repeatedFlag)
    .option('--limit <n>', 'maximum number of results', positiveInt, 5)
    .option('--json', 'print results as JSON')
    .option('--allow-remote-models', 'let Transformers.js download the index model if missing')
    .action(printSearch);
}

async function printSearch(words: string[], flags: SearchFlags): Promise<void> {
  const term = words.join(' ').trim();
  if (term === '') throw new UsageError('the search term is empty: svc-docs search "webhook signature"');
  const settings = resolveSettings(flags);
  const [{ openEngine }, { renderSearch }] = await Promise.all([
    import('../search/engine.js'),
    import('../mcp/render/render.js'),
  ]);
  const engine = await openEngine(settings.indexDir, {
    model: settings.model,
    allowRemoteModels: settings.allowRemoteModels,
  });
  try {
    const results = await engine.search(term, { limit: flags.limit });
    if (flags.json) console.log(JSON.stringify(results, null, 2));
    else console.log(renderSearch(term, results, { budgetChars: serverSettings().responseBudgetChars }).text);
  } finally {
    await engine.close();
  }
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
    // Read on its own, before any other setting: a bad setting's error must obey it too.
    if (debugRequested()) console.error(error);
    return 1;
  }
}
