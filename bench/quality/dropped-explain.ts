import { scorePassages } from '../../src/mcp/render/passage-score.js';
import { passageOptions } from '../../src/search/passage-options.js';
import { showsPhrase } from '../queries/answer-text.js';
import { DEFAULT_RESULTS_FILE, flag, phrasesFor, renderFlag, tuningCases } from './dropped-cases.js';
import { RESPONSE_BUDGET_CHARS, respond } from './response.js';

/**
 * `npx tsx bench/quality/dropped-explain.ts '<start of a tuning query>' [--results=…] [--render=…]`:
 * every passage of every kept result of that query with its score and length, `ANS` where it
 * holds an answer phrase and `ON` where the response shows it (its first 60 characters appear in
 * the result's shown text): why a found answer was dropped (bench/quality/dropped.ts lists them).
 */

const options = passageOptions(renderFlag());
const start = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '';
const cases = await tuningCases(flag('results') ?? DEFAULT_RESULTS_FILE);
const c = cases.find((x) => x.q.query.startsWith(start));
if (c === undefined) throw new Error(`no tuning query starts with ${JSON.stringify(start)}`);
const kept = c.results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
const response = respond(c.q.query, c.results, RESPONSE_BUDGET_CHARS, options);
scorePassages(c.q.query, kept, options).forEach((s, i) => {
  const phrases = phrasesFor(c.q, s.result);
  const shown = response.shown[i]?.text ?? '';
  console.log(`#${i + 1} ${s.result.path}`);
  for (const sp of s.sections) {
    const { position, isBest, match, headings } = sp.section;
    console.log(`  section ${position}${isBest ? '*' : ''} match ${match.toFixed(2)} ${headings.at(-1) ?? ''}`);
    for (const p of sp.passages) {
      const ans = phrases.length > 0 && showsPhrase(p.text, phrases) ? 'ANS' : '   ';
      const on = shown.includes(p.text.slice(0, 60)) ? 'ON ' : '   ';
      const score = (s.score.get(p) ?? 0).toFixed(3);
      console.log(`    ${ans} ${on} ${score} ${p.text.length} ${p.text.replace(/\s+/g, ' ').slice(0, 90)}`);
    }
  }
});
