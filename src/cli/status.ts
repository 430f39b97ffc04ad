import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { codedError } from '../errors.js';
import { currentBuildDir, readManifest } from '../index/read-index.js';
import { queryStoreFiles } from '../observe/query-record.js';
import { readingSettings } from '../settings/commands.js';
import { addSettingFlags } from '../settings/flags.js';
import type { Env } from '../settings/values.js';
import { readsLine } from './reads-line.js';

/**
 * `svc-docs status`: which docs this checkout's commands read (the corpus last served or indexed
 * here, unless one is named), the index folder, when it was built and with what, and whether
 * searches are recorded beside it. Reads files only, like `report`.
 */

type StatusFlags = { json?: boolean };

export function addStatusCommand(program: Command, env: Env): void {
  const command = program
    .command('status')
    .description('which docs search and report read here: the corpus, its index folder, when it was built');
  addSettingFlags(command, 'status')
    .option('--json', 'print the status as JSON')
    .action((flags: StatusFlags) => printStatus(flags, env));
}

class NoIndexError extends codedError('NoIndexError', 'index_missing') {}

async function printStatus(flags: StatusFlags, env: Env): Promise<void> {
  const settings = readingSettings('status', flags, env);
  const buildDir = await currentBuildDir(settings.indexDir);
  const manifest = buildDir === undefined ? undefined : await readManifest(buildDir);
  const holds = manifest && { knowledgeBases: manifest.corpus.knowledgeBases, documents: manifest.corpus.documents };
  const { current, previous } = queryStoreFiles(settings.indexDir);
  const recorded = existsSync(current) || existsSync(previous);
  if (flags.json) {
    const { indexDir, corpusDirs, origin } = settings;
    const built = manifest && { builtAt: manifest.builtAt, model: manifest.model.id, sections: manifest.sections };
    console.log(JSON.stringify({ origin, corpus: corpusDirs, index: indexDir, ...holds, ...built, recorded }, null, 2));
  } else {
    console.log(readsLine(settings, holds));
    if (manifest !== undefined)
      console.log(
        `built ${manifest.builtAt} with ${manifest.model.id}: ${manifest.corpus.documents} pages, ${manifest.sections} sections; ${recorded ? 'searches recorded beside it (svc-docs report)' : 'no searches recorded yet'}`,
      );
  }
  if (manifest === undefined)
    throw new NoIndexError(`no index in ${settings.indexDir}: run 'svc-docs index' or 'svc-docs serve' first`);
}
