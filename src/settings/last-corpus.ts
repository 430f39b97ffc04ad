import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeCacheFile } from '../cache-file.js';

/**
 * The docs this checkout serves: `serve` and `index` record the corpus and index folder they used
 * in the cache folder, and `search`, `report` and `status` read them when no corpus or index is
 * named. Without it, a plain `svc-docs search` after `serve --corpus ./my-docs` answered from the
 * bundled docs. Each of them says which it read, in its first line (reads-line.ts).
 */

const lastCorpusSchema = z.object({
  /** The corpus as named; empty when only an index folder was (`serve --index <dir>`). */
  corpus: z.array(z.string().min(1)),
  index: z.string().min(1),
  command: z.enum(['serve', 'index']),
  at: z.string(),
});

export type LastCorpus = z.infer<typeof lastCorpusSchema>;

export function lastCorpusFile(cacheDir: string): string {
  return join(cacheDir, 'last-corpus.json');
}

/** The record, or undefined when there is none; a damaged one counts as none (the first line says which docs were read). */
export function readLastCorpus(cacheDir: string): LastCorpus | undefined {
  try {
    const parsed = lastCorpusSchema.safeParse(JSON.parse(readFileSync(lastCorpusFile(cacheDir), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Records what `command` served or built; a cache folder that cannot be written only loses the record. */
export function writeLastCorpus(cacheDir: string, entry: Omit<LastCorpus, 'at'>, now = new Date()): void {
  const record: LastCorpus = { ...entry, at: now.toISOString() };
  writeCacheFile(lastCorpusFile(cacheDir), `${JSON.stringify(record, null, 2)}\n`);
}

/** What `serve` or `index` just used, for the reading commands: the corpus only when it was named or is the index's own. */
export function rememberCorpus(
  settings: { cacheDir: string; corpusDirs: string[]; indexDir: string; corpusGiven: boolean; indexIsDefault: boolean },
  command: LastCorpus['command'],
): void {
  const corpus = settings.corpusGiven || settings.indexIsDefault ? settings.corpusDirs : [];
  writeLastCorpus(settings.cacheDir, { corpus, index: settings.indexDir, command });
}
