import { Command, CommanderError, Option } from 'commander';
import { positiveInt } from './flags.js';
import { addReportCommand } from './report.js';
import { addServeCommand } from './serve.js';
import { addStatusCommand } from './status.js';
import { readsLine } from './reads-line.js';
import { checkCorpusFolders } from '../corpus-folder.js';
import { codedError } from '../errors.js';
import { SETTINGS } from '../settings/catalogue.js';
import { configSettings, debugRequested, indexSettings, searchSettings } from '../settings/commands.js';
import { addSettingFlags } from '../settings/flags.js';
import { rememberCorpus } from '../settings/last-corpus.js';
import { type Env, unknownVariables } from '../settings/values.js';

/**
 * The command line: the one place that wires the indexer and the server together. A user's
 * mistake prints one line and exits non-zero; no stack traces. Each command is registered by a
 * function of its own; `serve`, the largest, lives in serve.ts. The setting flags come from the
 * catalogue (src/settings/); the environment is read once, in `main`'s caller, and passed down.
 */

class UsageError extends codedError('UsageError', 'invalid_usage') {}

export function createProgram(env: Env): Command {
  const program = new Command();
  program
    .name('svc-docs')
    .description('Documentation search for AI coding assistants: index Markdown, serve it over MCP.')
    // Commander's own errors (a typo'd flag, a missing argument) are printed by `main` as one line
    // naming --help, not as the error and then the whole help; set before the commands inherit it.
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  addIndexCommand(program, env);
  addServeCommand(program, env);
  addConfigCommand(program, env);
  addSearchCommand(program, env);
  addReportCommand(program, env);
  addStatusCommand(program, env);
  return program;
}

function addIndexCommand(program: Command, env: Env): void {
  const command = program
    .command('index')
    .description('build or update the index of a Markdown corpus (only changed sections are embedded again)');
  addSettingFlags(command, 'index')
    .addOption(new Option('--ipc', 'build on request from serve --watch, until it lets go').hideHelp())
    .action(async (flags: { ipc?: boolean }) => {
      const settings = indexSettings(flags, env);
      // A missing folder is said before the indexer loads, not after.
      checkCorpusFolders(settings.corpusDirs);
      // The indexer is imported only by the commands that build: `serve --no-build` starts without it.
      const { buildOnRequest, buildWithProgress } = await import('./build.js');
      if (flags.ipc) return await buildOnRequest(settings);
      await buildWithProgress(settings);
      rememberCorpus(settings, 'index');
    });
}

/** The address a server started with the defaults answers at (its path is the MCP endpoint's, /docs). */
const DEFAULT_URL = `http://${SETTINGS.host.default}:${SETTINGS.port.default}/docs`;

function addConfigCommand(program: Command, env: Env): void {
  program
    .command('config')
    .description('print the MCP client configuration for popular clients')
    .option('--url <url>', 'the server endpoint', DEFAULT_URL)
    .option('--auth', 'the server requires a bearer token (adds a placeholder header)')
    .action((flags: { url: string; auth?: boolean }) => printClientConfigs(flags, env));
}

async function printClientConfigs(flags: { url: string; auth?: boolean }, env: Env): Promise<void> {
  const url = URL.parse(flags.url);
  if (url === null) throw new UsageError(`--url must be an absolute URL such as ${DEFAULT_URL}, got "${flags.url}"`);
  const { authTokenSet } = configSettings(flags, env);
  const { clientConfigs } = await import('./client-config.js');
  for (const c of clientConfigs(url.href, { auth: flags.auth ?? authTokenSet })) {
    console.log(`# ${c.client} (${c.file})\n${c.text}\n`);
  }
}

type SearchFlags = { limit?: number; json?: boolean; kb?: string };

function addSearchCommand(program: Command, env: Env): void {
  const command = program
    .command('search')
    .description('search the index, printing results as the SearchDocs tool renders them')
    .argument('<term...>', 'what to look for');
  addSettingFlags(command, 'search')
    .option(
      '--limit <n>',
      `maximum number of results (default: ${SETTINGS.maxResults.variable}, else its default)`,
      positiveInt,
    )
    .option('--kb <name>', 'search this knowledge base only (default: all of them)')
    .option('--json', 'print results as JSON')
    .action((words: string[], flags: SearchFlags) => printSearch(words, flags, env));
}

async function printSearch(words: string[], flags: SearchFlags, env: Env): Promise<void> {
  const term = words.join(' ').trim();
  if (term === '') throw new UsageError('the search term is empty: svc-docs search "webhook signature"');
  const settings = searchSettings(flags, env);
  const [{ openEngine }, { renderSearch }] = await Promise.all([
    import('../search/engine.js'),
    import('../mcp/render/render.js'),
  ]);
  // The settings carry the engine's options (model, allowRemoteModels, cacheDir) under their own names.
  const engine = await openEngine(settings.indexDir, settings);
  try {
    const results = await engine.search(term, { limit: flags.limit ?? settings.maxResults, knowledgeBase: flags.kb });
    // First, which docs answered (once they did: a refused search is one line on stderr alone); on
    // stderr beside --json, whose stdout stays one JSON document.
    (flags.json ? console.error : console.log)(readsLine(settings, engine.summary()));
    if (flags.json) console.log(JSON.stringify(results, null, 2));
    else console.log(renderSearch(term, results, { budgetChars: settings.responseBudgetChars }).text);
  } finally {
    await engine.close();
  }
}

export async function main(argv: string[], env: Env): Promise<number> {
  for (const name of unknownVariables(env))
    console.error(
      `svc-docs: warning: ${name} is not a setting and is ignored (svc-docs --help, docs/configuration.md)`,
    );
  const program = createProgram(env);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      // No command given: commander has printed the help, to stderr.
      if (error.code === 'commander.help') return 1;
      console.error(commanderErrorLine(error, program, argv));
      return 2;
    }
    console.error(`svc-docs: ${(error as Error).message}`);
    if (debugRequested(env)) console.error(error);
    return 1;
  }
}

/**
 * Commander's error as one line: "error: unknown option '--corpse'" and its "(Did you mean
 * --corpus?)" hint joined, and the help to read named (the command's own, when one was given).
 */
export function commanderErrorLine(error: CommanderError, program: Command, argv: readonly string[]): string {
  const text = error.message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const command = program.commands.find((c) => c.name() === argv[2]);
  const help = command === undefined ? 'svc-docs --help' : `svc-docs ${command.name()} --help`;
  return `svc-docs: ${text}; see ${help}`;
}
