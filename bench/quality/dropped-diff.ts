import { type CachedCase, DEFAULT_RESULTS_FILE, flag, tuningCases } from './dropped-cases.js';
import { RESPONSE_BUDGET_CHARS, respond } from './response.js';
import { answerAt } from './shown.js';

/**
 * `npx tsx bench/quality/dropped-diff.ts --render=<json> [--base=<json>] [--results=<json file>]`:
 * the TUNING-half questions whose Hit@1 or Hit@5 at 12k differs between two sets of the response's
 * fitted numbers (`--base`, shipped when absent, and `--render`), one line each: which corpus, which
 * query, before → after. Re-renders the cached results (dropped-cases.ts), never searches.
 */

const parse = (name: string) => {
  const given = flag(name);
  return given === undefined ? undefined : (JSON.parse(given) as Record<string, number>);
};

function hits(c: CachedCase, render: Record<string, number> | undefined): [number, number] {
  const shown = respond(c.q.query, c.results, RESPONSE_BUDGET_CHARS, render).shown;
  return [answerAt(c.q, shown, 1), answerAt(c.q, shown, 5)];
}

const [base, render] = [parse('base'), parse('render')];
const cases = await tuningCases(flag('results') ?? DEFAULT_RESULTS_FILE);
let [won, lost] = [0, 0];
for (const c of cases) {
  const [b1, b5] = hits(c, base);
  const [a1, a5] = hits(c, render);
  if (b1 === a1 && b5 === a5) continue;
  if (a1 + a5 > b1 + b5) won++;
  else lost++;
  console.log(`[${c.set} ${c.q.style}] hit1 ${b1}→${a1} hit5 ${b5}→${a5}: ${c.q.query}`);
}
console.log(`${won} questions better, ${lost} worse`);
