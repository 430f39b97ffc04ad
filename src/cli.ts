#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { buildIndex, type BuildSummary } from '../indexer/build.js';
import { resolveSettings, type CommonFlags } from './config.js';
import { openEngine } from './search/engine.js';
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
  return [
    `indexed ${summary.documents} documents, ${summary.sections} sections from ${summary.knowledgeBases.join(', ')} in ${summary.seconds.toFixed(1)} s`,
    `section vectors: ${summary.sectionsEmbedded} embedded, ${summary.sectionsReused} reused from cache; ${summary.vocabularyEmbedded} new vocabulary words embedded`,
    `changes since the previous index: ${added.length} added, ${changed.length} changed, ${removed.length} removed` + changeList(summary.changes),
    `index written to ${summary.buildDir}`,
  ];
}

export function createProgram(): Command {
  const program = new Command();
  program.name('svc-docs').description('Documentation search for AI coding assistants: index Markdown, serve it over MCP.').showHelpAfterError();

  program
    .command('index')
    .description('build or update the index of a Markdown corpus (only changed sections are embedded again)')
    .option('--corpus <dir>', 'corpus folder (repeatable; default: ./corpus)', collect)
    .option('--out <dir>', 'index folder (default: ./index-data)')
    .option('--model <model>', 'Transformers.js model folder or Hub id (default: the bundled offline model)')
    .option('--allow-remote-models', 'let Transformers.js download a Hub model')
    .action(async (flags: CommonFlags) => {
      const settings = resolveSettings(flags);
      const progress = progressReporter(process.stderr);
      try {
        const summary = await buildIndex({
          corpusDirs: settings.corpusDirs,
          outDir: settings.indexDir,
          model: settings.model,
          allowRemoteModels: settings.allowRemoteModels,
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
      const engine = await openEngine(settings.indexDir, { model: settings.model, allowRemoteModels: settings.allowRemoteModels });
      try {
        const results = await engine.search(term, { limit: flags.limit });
        if (flags.json) console.log(JSON.stringify(results, null, 2));
        else console.log(renderPlain(results));
      } finally {
        await engine.close();
      }
    });

  return program;
}

function renderPlain(results: Awaited<ReturnType<Awaited<ReturnType<typeof openEngine>>['search']>>): string {
  if (results.length === 0) return 'No results.';
  return results
    .map((r, i) => {
      const stars = '★'.repeat(r.relevance.stars);
      const body = r.sections.map((s) => (s.isBest ? '>>> ' : '') + s.text.trim()).join('\n\n---\n\n');
      return `## ${i + 1}. ${r.title}\nSource: ${r.source} (${r.path})\nRelevance: ${stars ? stars + ' ' : ''}${r.relevance.label}\n\n${body}`;
    })
    .join('\n\n');
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
    if (process.env.SVC_DOCS_DEBUG) console.error(error);
    return 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && /cli\.(ts|js)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
