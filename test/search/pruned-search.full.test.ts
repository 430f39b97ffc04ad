import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelledSets, splitHalf, type QuerySet } from '../../bench/queries.js';
import { buildIndex } from '../../indexer/build.js';
import { LexicalIndex } from '../../src/index/lexical-index.js';
import { postingsSource } from '../../src/index/postings-source.js';
import { tokenize } from '../../src/index/tokenize.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine, type LoadedEngine } from '../../src/search/engine.js';
import { bundledIndex, tempDir } from '../helpers/index-fixture.js';

/**
 * Search with MaxScore pruning in the lexical stage (wherever it can: these corpora are too small
 * for the shipped threshold) against search that scores every match, on real indexes of the six labelled corpora: the same pages, in the same order,
 * with the same windows, excerpts, scores and confidences, for every query of the labelled sets'
 * tuning halves and for random queries made of the corpora's own words. Both at the shipped 2,000
 * lexical candidates and at 40, where nearly every query is pruned. In the full tier: it builds six
 * corpora (51 s on the two-worker run, the slowest file of the fast tier before).
 */

const sets = labelledSets(projectRoot()).filter((set) => set.name === 'svc' || existsSync(set.corpusDir));
const CANDIDATES = [undefined, 40];

interface Pair {
  set: QuerySet;
  candidates: number | undefined;
  pruned: LoadedEngine;
  exhaustive: LoadedEngine;
}

const pairs: Pair[] = [];
const indexes = new Map<string, string>();

beforeAll(async () => {
  const vectorCacheDir = tempDir('vectors');
  for (const set of sets) {
    const dir = set.name === 'svc' ? bundledIndex() : tempDir(`${set.name}-index`);
    if (set.name !== 'svc') await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, vectorCacheDir });
    indexes.set(set.name, dir);
    const base = await openEngine(dir);
    for (const candidates of CANDIDATES) {
      const options = { embedder: base.embedder };
      pairs.push({
        set,
        candidates,
        pruned: await openEngine(dir, options, { lexicalCandidates: candidates, lexicalPruning: 'always' }),
        exhaustive: await openEngine(dir, options, { lexicalCandidates: candidates, lexicalPruning: false }),
      });
    }
  }
}, 900_000);

afterAll(async () => {
  for (const pair of pairs) await Promise.all([pair.pruned.releaseIndex(), pair.exhaustive.releaseIndex()]);
});

/** Both engines' full answers to `query`. */
async function both(pair: Pair, query: string) {
  const [a, b] = await Promise.all([pair.pruned.searchDetailed(query), pair.exhaustive.searchDetailed(query)]);
  const strip = (d: typeof a) => ({ ...d, timings: undefined });
  return [strip(a), strip(b)] as const;
}

describe('pruned lexical search gives what exhaustive scoring gives', () => {
  it('on every query of every labelled set’s tuning half', async () => {
    for (const pair of pairs) {
      for (const q of splitHalf(pair.set, 'tuning').queries) {
        const [pruned, exhaustive] = await both(pair, q.query);
        expect(pruned, `${pair.set.name} ${q.id} at ${pair.candidates ?? 'default'} candidates`).toEqual(exhaustive);
      }
    }
  });

  it('on random queries of the corpora’s own words', async () => {
    for (const pair of pairs.filter((p) => p.candidates !== undefined)) {
      const index = await openEngine(indexes.get(pair.set.name)!, { embedder: pair.pruned.embedder });
      const source = postingsSource(index.index.lexical);
      const words = Array.from({ length: source.termCount }, (_, t) => source.termAt(t)).filter((w) =>
        /^[a-z]+$/.test(w),
      );
      await index.releaseIndex();
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 7 }), async (terms) => {
          const [pruned, exhaustive] = await both(pair, terms.join(' '));
          expect(pruned).toEqual(exhaustive);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('prunes most labelled queries at 40 candidates, so the comparison is not idle', async () => {
    let pruned = 0;
    let all = 0;
    for (const set of sets) {
      const engine = pairs.find((p) => p.set === set)!.pruned;
      const lexical = new LexicalIndex(engine.index.lexical, engine.index.manifest.lexical, 0);
      const queries = splitHalf(set, 'tuning').queries;
      all += queries.length;
      pruned += queries.filter(
        (q) => lexical.search(new Map(tokenize(q.query).map((t) => [t, 1])), new Map(), 40).lookup !== undefined,
      ).length;
      lexical.close();
    }
    expect(pruned).toBeGreaterThan(all / 2);
  });
});
