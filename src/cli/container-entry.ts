#!/usr/bin/env node
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SETTINGS } from '../settings/catalogue.js';
import { indexSettings } from '../settings/commands.js';
import { defaultCorpusDir } from '../settings/defaults.js';
import { SettingsError } from '../settings/read-value.js';
import { checkWritable, FolderNotWritableError } from './writable-folders.js';

/**
 * The Docker image's entrypoint: picks the corpus, checks the folders a build writes, then runs
 * the `svc-docs` command line with the same arguments.
 *
 * - The corpus: whatever is mounted under /corpus (`-v ./docs:/corpus/my-docs` makes a knowledge
 *   base named my-docs), else the bundled docs; SVC_DOCS_CORPUS or --corpus still win.
 * - The check: a command that may build (`serve` without --no-build, `index`) needs the index and
 *   vector-cache folders writable. When they are not, one line says which uid:gid needs them and
 *   the command that fixes it, and the container exits 1. It does not start as root to chown the
 *   mount and drop privileges: the image then never runs as root (Kubernetes' runAsNonRoot,
 *   `--user` and rootless engines keep working), and a host folder's owner is not changed
 *   behind its owner's back.
 */

/** Where the image expects mounted docs; empty in the image itself. */
const MOUNTED_CORPUS = '/corpus';

/** The corpus folder for SVC_DOCS_CORPUS: the mounted docs when anything is mounted, else the bundled ones. */
function containerCorpus(mounted: string = MOUNTED_CORPUS): string {
  let entries: string[];
  try {
    entries = readdirSync(mounted);
  } catch {
    entries = [];
  }
  return entries.length > 0 ? mounted : defaultCorpusDir();
}

/** The folders `argv`'s command would write, or none when it never builds. */
function foldersToWrite(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const [command, ...rest] = argv.slice(2);
  if (command !== 'serve' && command !== 'index') return [];
  const { values } = parseArgs({
    args: rest,
    strict: false,
    allowNegative: true,
    options: {
      index: { type: 'string' },
      out: { type: 'string' },
      'vector-cache': { type: 'string' },
      build: { type: 'boolean' },
    },
  });
  if (command === 'serve' && values.build === false) return [];
  const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
  const settings = indexSettings(
    { out: text(values.out) ?? text(values.index), vectorCache: text(values['vector-cache']) },
    env,
  );
  return [settings.indexDir, settings.vectorCacheDir];
}

function prepare(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  env[SETTINGS.corpus.variable] ||= containerCorpus();
  try {
    checkWritable(foldersToWrite(argv, env));
  } catch (error) {
    // A setting the CLI will refuse anyway: let it say so, in its own words.
    if (error instanceof SettingsError) return;
    throw error;
  }
}

try {
  prepare(process.argv, process.env);
} catch (error) {
  if (!(error instanceof FolderNotWritableError)) throw error;
  console.error(`svc-docs: ${error.message}`);
  process.exit(1);
}
await import('../cli.js');
