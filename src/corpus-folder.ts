import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCorpusSpec } from './corpus-spec.js';
import { codedError } from './errors.js';

/** A corpus that cannot be indexed: a folder missing, a file unreadable, a bad knowledge-base name or kb.json. */
export class CorpusError extends codedError('CorpusError', 'invalid_corpus') {}

/** The one message for a corpus folder that is not there, wherever it is found missing. */
export function checkCorpusFolder(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new CorpusError(`corpus folder ${dir} does not exist or is not a folder`);
}

/**
 * The local folders among the corpus entries, checked before `index` or `serve` starts any work:
 * a mistyped path is then one line, not a server log that starts, announces a build and fails.
 * Git repositories and websites are checked when they are fetched.
 */
export function checkCorpusFolders(entries: readonly string[]): void {
  for (const entry of entries) {
    const spec = parseCorpusSpec(entry);
    if (spec.kind === 'folder') checkCorpusFolder(resolve(spec.path));
  }
}
