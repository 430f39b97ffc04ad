import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import { renderSearch } from '../../src/mcp/render/render.js';
import { projectRoot } from '../../src/project-root.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchResult } from '../../src/search/types.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { flagValue } from '../lib/flags.js';
import { percentile } from '../lib/metrics.js';
import { labelledSets } from '../queries.js';
import { RESPONSE_BUDGET_CHARS, RESULT_COUNT } from '../quality/response.js';

/**
 * `npx tsx bench/speed/render-ab.ts --before=<tree> [--sets=argocd,…|all] [--rounds=30] [--only=before|after]`:
 * rendering alone, in process, this tree's `renderSearch` against another tree's (`<tree>/src`,
 * e.g. main's `src` put in /tmp by `git archive main src | tar -x -C /tmp/x`, with a
 * node_modules link), both imported into one process and alternated call by call (which goes
 * first swaps every round) over the labelled questions of each set, searched once on the set's
 * bench index (`<cache>/bench/<set>-index`) with the server's result count and budget. Reports
 * each tree's median wall time per call and process CPU per call, and how many responses differ
 * between the two trees (a change meant to keep output the same must report 0). `--before` may
 * also name one .mjs module (the tree's render.ts bundled by esbuild, this script too, for a
 * profile whose lines are the source's). `--only` renders
 * with one tree alone; `--cpu-prof=<file>` writes a CPU profile of the timed rounds alone (the
 * first, cold pass left out).
 */

type Render = typeof renderSearch;

class RenderAbUsageError extends Error {}

interface Timing {
  wall: number[];
  cpuMicros: number;
  calls: number;
}

const timing = (): Timing => ({ wall: [], cpuMicros: 0, calls: 0 });

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function timed(render: Render, t: Timing, query: string, results: SearchResult[]): string {
  const c0 = cpuMicros();
  const w0 = performance.now();
  const { text } = render(query, results, { budgetChars: RESPONSE_BUDGET_CHARS });
  t.wall.push(performance.now() - w0);
  t.cpuMicros += cpuMicros() - c0;
  t.calls++;
  return text;
}

async function searched(sets: readonly string[]): Promise<[string, SearchResult[]][]> {
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const calls: [string, SearchResult[]][] = [];
  for (const set of labelledSets(projectRoot()).filter((s) => sets.includes(s.name))) {
    const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index`);
    if (!existsSync(dir)) throw new RenderAbUsageError(`no bench index at ${dir}: run the quality bench first`);
    const engine = await openEngine(dir, { embedder });
    for (const q of set.queries) calls.push([q.query, await engine.search(q.query, { limit: RESULT_COUNT })]);
    await engine.close();
  }
  await embedder.dispose();
  return calls;
}

function report(name: string, t: Timing): string {
  if (t.calls === 0) return `${name}: not run`;
  const cpu = t.cpuMicros / 1000 / t.calls;
  return `${name}: median ${percentile(t.wall, 50).toFixed(3)} ms, p95 ${percentile(t.wall, 95).toFixed(3)} ms, CPU ${cpu.toFixed(3)} ms per call`;
}

async function main(): Promise<void> {
  const tree = flagValue('before');
  if (tree === undefined) throw new RenderAbUsageError('usage: render-ab.ts --before=<tree> [--sets=…] [--rounds=n]');
  // A tree, or its render.ts built into one module (esbuild --bundle), for a profile with line numbers.
  const module = /\.m?js$/.test(tree) ? tree : join(tree, 'src/mcp/render/render.ts');
  const before = ((await import(pathToFileURL(resolve(module)).href)) as { renderSearch: Render }).renderSearch;
  const setsFlag = flagValue('sets') ?? 'argocd';
  const sets = setsFlag === 'all' ? labelledSets(projectRoot()).map((s) => s.name) : setsFlag.split(',');
  const rounds = Number(flagValue('rounds') ?? 30);
  const only = flagValue('only');
  const calls = await searched(sets);
  let differ = 0;
  for (const [q, r] of calls)
    if (
      before(q, r, { budgetChars: RESPONSE_BUDGET_CHARS }).text !==
      renderSearch(q, r, { budgetChars: RESPONSE_BUDGET_CHARS }).text
    )
      differ++;
  const a = timing();
  const b = timing();
  const profile = flagValue('cpu-prof');
  const session = new Session();
  session.connect();
  if (profile !== undefined) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let round = 0; round < rounds; round++)
    for (const [q, r] of calls) {
      const pair: [Render, Timing][] = [
        [before, a],
        [renderSearch, b],
      ];
      if (round % 2 === 1) pair.reverse();
      for (const [render, t] of pair)
        if (only === undefined || (only === 'before') === (render === before)) timed(render, t, q, r);
    }
  if (profile !== undefined) writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
  console.log(
    `${sets.join(', ')}: ${calls.length} questions, ${rounds} rounds; ${differ} responses differ between the trees`,
  );
  console.log(report(`before (${tree})`, a));
  console.log(report('after (this tree)', b));
  if (a.calls > 0 && b.calls > 0)
    console.log(
      `after / before: median ${(percentile(b.wall, 50) / percentile(a.wall, 50)).toFixed(2)}, CPU ${(b.cpuMicros / a.cpuMicros).toFixed(2)}`,
    );
}

main().catch((error: unknown) => {
  console.error(error instanceof RenderAbUsageError ? error.message : error);
  process.exitCode = 1;
});
