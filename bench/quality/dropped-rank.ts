import { type ScoredResult, scorePassages } from '../../src/mcp/render/passage-score.js';
import { passageOptions } from '../../src/search/passage-options.js';
import { showsPhrase } from '../queries/answer-text.js';
import { type CachedCase, DEFAULT_RESULTS_FILE, flag, phrasesFor, renderFlag, tuningCases } from './dropped-cases.js';
import { fullWindows, type Response, RESPONSE_BUDGET_CHARS, respond } from './response.js';
import { answerAt } from './shown.js';

/**
 * `npx tsx bench/quality/dropped-rank.ts [--results=<json file>] [--render=<json>]`: why each
 * found-then-dropped question of the TUNING halves was dropped, by cause: the short not-covered
 * answer; room (an answering passage is among its page's 3 best-scored and was still not shown);
 * scoring (every answering passage ranks lower in its page). One line per answering passage: its
 * result, section and distance from the best match, whether it is its section's first passage,
 * its score and rank among its page's passages, its length, and the lowest score the response
 * showed of that page. bench/quality/dropped.ts lists the cases, dropped-explain.ts one query.
 */

const ROOM_RANK = 3;

interface Answering {
  line: string;
  rank: number;
}

function answeringOf(c: CachedCase, s: ScoredResult, at: number, response: Response): Answering[] {
  const phrases = phrasesFor(c.q, s.result);
  if (phrases.length === 0) return [];
  const ranked = [...s.score.entries()].sort((a, b) => b[1] - a[1]);
  const shown = response.shown[at]?.text ?? '';
  const shownScores = ranked.filter(([p]) => shown.includes(p.text.slice(0, 60))).map(([, v]) => v);
  const lowest = shownScores.length === 0 ? '-' : Math.min(...shownScores).toFixed(3);
  const best = s.sections.find((x) => x.section.isBest)?.section.position ?? 0;
  return s.sections.flatMap((sp) =>
    sp.passages
      .filter((p) => showsPhrase(p.text, phrases))
      .map((p) => {
        const rank = ranked.findIndex(([q]) => q === p);
        const where = `#${at + 1} section ${sp.section.position} (${sp.section.position - best >= 0 ? '+' : ''}${sp.section.position - best})`;
        return {
          rank,
          line:
            `   ${where}${sp.passages[0] === p ? ' first' : ''} score ${(s.score.get(p) ?? 0).toFixed(3)}` +
            ` rank ${rank + 1} of ${ranked.length}, ${p.text.length} chars; lowest shown ${lowest}`,
        };
      }),
  );
}

const options = passageOptions(renderFlag());
const cases = await tuningCases(flag('results') ?? DEFAULT_RESULTS_FILE);
const causes = { 'not covered': 0, room: 0, scoring: 0 };
for (const c of cases) {
  const response = respond(c.q.query, c.results, RESPONSE_BUDGET_CHARS, options);
  if (answerAt(c.q, fullWindows(c.results), 5) !== 1 || answerAt(c.q, response.shown, 5) !== 0) continue;
  const kept = c.results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
  const found = response.covered
    ? scorePassages(c.q.query, kept, options).flatMap((s, i) => answeringOf(c, s, i, response))
    : [];
  const cause = !response.covered ? 'not covered' : found.some((a) => a.rank < ROOM_RANK) ? 'room' : 'scoring';
  causes[cause]++;
  console.log(`[${c.set} ${c.q.style}] ${cause}: ${c.q.query}`);
  for (const a of found) console.log(a.line);
}
console.log(
  Object.entries(causes)
    .map(([k, n]) => `${k} ${n}`)
    .join(', '),
);
