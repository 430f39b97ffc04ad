import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { projectRoot } from '../../src/project-root.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { labelledSets } from '../queries.js';
import { engineSystem } from './answers.js';
import { respond, RESULT_COUNT } from './response.js';

/**
 * `npx tsx bench/quality/response-texts.ts <output file> [--index-root=<folder>]`: every labelled
 * query of every set (both halves, and the off-topic questions) answered as the server answers
 * SearchDocs (default result count, default budget), its response text written to one file, so
 * two runs (before and after a change meant to keep output the same) compare byte for byte with
 * `cmp`. Indexes are built with the default model under `--index-root` (default
 * `<cache>/bench/response-texts`); each build reuses the previous one's vectors as `index` does.
 */

export class ResponseTextsUsageError extends Error {}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = args.find((a) => !a.startsWith('--'));
  if (out === undefined)
    throw new ResponseTextsUsageError('usage: response-texts.ts <output file> [--index-root=<folder>]');
  const rootFlag = args.find((a) => a.startsWith('--index-root='));
  const indexRoot =
    rootFlag === undefined
      ? join(cacheDirOf(process.env), 'bench', 'response-texts')
      : resolve(rootFlag.slice('--index-root='.length));
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const lines: string[] = [];
  for (const set of labelledSets(projectRoot())) {
    const dir = join(indexRoot, set.name);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder });
    const system = await engineSystem(set.name, dir, embedder);
    for (const q of [...set.queries, ...set.offTopic]) {
      const text = respond(q.query, await system.search(q.query, RESULT_COUNT)).text;
      lines.push(`=== ${set.name} ${q.id} ${JSON.stringify(q.query)}`, text);
    }
    await system.close();
    console.log(`${set.name}: ${set.queries.length + set.offTopic.length} queries`);
  }
  await embedder.dispose();
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, `${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ResponseTextsUsageError ? error.message : error);
  process.exitCode = 1;
});
