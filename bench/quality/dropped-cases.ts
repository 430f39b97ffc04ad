import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { projectRoot } from '../../src/project-root.js';
import type { PassageOptions } from '../../src/search/passage-options.js';
import type { SearchResult } from '../../src/search/types.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { assertTuningOnly, type LabelledQuery, labelledSets, splitHalf } from '../queries.js';
import { engineSystem } from './answers.js';
import { RESULT_COUNT } from './response.js';

/**
 * The TUNING halves' labelled queries with the engine's results, searched once and kept in a file
 * (bench/quality/dropped.ts and dropped-explain.ts re-render them, never search again), and the
 * flags those tools share.
 */

export interface CachedCase {
  set: string;
  q: LabelledQuery;
  results: SearchResult[];
}

export const DEFAULT_RESULTS_FILE = '/tmp/dropped-results.json';

/** The cases in `file`, searched first (every set's tuning half, on the bench indexes tune.ts builds) when it is not there; delete it after a change to the ranking or the query sets. */
export async function tuningCases(file: string): Promise<CachedCase[]> {
  if (existsSync(file)) {
    const cases = JSON.parse(readFileSync(file, 'utf8')) as CachedCase[];
    assertTuningOnly(cases.map((c) => c.q));
    return cases;
  }
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const out: CachedCase[] = [];
  for (const full of labelledSets(projectRoot())) {
    const set = splitHalf(full, 'tuning');
    assertTuningOnly(set.queries);
    const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index`);
    // Built as tune.ts builds it: reused when the corpus and the indexer are unchanged.
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder });
    const system = await engineSystem(set.name, dir, embedder);
    for (const q of set.queries) out.push({ set: set.name, q, results: await system.search(q.query, RESULT_COUNT) });
    await system.close();
    console.error(`${set.name}: ${set.queries.length} tuning queries searched`);
  }
  await embedder.dispose();
  writeFileSync(file, JSON.stringify(out));
  return out;
}

/** `--name=value` from the command line. */
export function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** `--render=<json>`: the response's fitted numbers other than the shipped ones. */
export function renderFlag(): Partial<PassageOptions> | undefined {
  const given = flag('render');
  return given === undefined ? undefined : (JSON.parse(given) as Partial<PassageOptions>);
}

/** The answer phrases labelled for `r`'s page (none when it is not judged or states no answer). */
export function phrasesFor(q: LabelledQuery, r: Pick<SearchResult, 'source' | 'path'>): readonly string[] {
  return q.relevant.find((j) => j.doc === `${r.source}/${r.path}`)?.answers ?? [];
}
