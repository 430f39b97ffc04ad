import type { SearchResult } from '../../src/search/types.js';
import { percentile } from '../lib/metrics.js';
import { showsPhrase } from '../queries/answer-text.js';
import { type CachedCase, DEFAULT_RESULTS_FILE, flag, phrasesFor, renderFlag, tuningCases } from './dropped-cases.js';
import { fullWindows, type Response, RESPONSE_BUDGET_CHARS, respond } from './response.js';
import { answerAt } from './shown.js';

/**
 * `npx tsx bench/quality/dropped.ts [--results=<json file>] [--render=<json>] [--quiet]`: every
 * found-then-dropped question of the TUNING halves (its answer in the top 5's whole windows, not
 * in the 12,000-character response): each result's label, confidence, best section and room
 * (window and shown characters), where the answering sections sit relative to the best match,
 * the answer phrases and what the response showed of that page instead; then per corpus Hit@1,
 * Hit@5 at 12k and with whole windows, paraphrase Hit@5 both ways, found-then-dropped and median
 * characters. Searched once (dropped-cases.ts), so a change to the renderer re-renders only;
 * `--render` tries other fitted numbers. bench/quality/dropped-explain.ts scores one query's passages.
 */

/** The sections of `r`'s window and excerpts whose text holds an answer phrase. */
function answering(c: CachedCase, r: SearchResult) {
  const phrases = phrasesFor(c.q, r);
  return [...r.sections, ...(r.excerpts ?? [])].filter((s) => phrases.length > 0 && showsPhrase(s.text, phrases));
}

function explain(c: CachedCase, response: Response): string[] {
  const lines = [`[${c.set} ${c.q.style}] ${c.q.query}  (covered ${response.covered}, ${response.chars} chars)`];
  c.results.forEach((r, i) => {
    const at = answering(c, r);
    const best = r.sections.find((s) => s.isBest)!;
    const shown = response.shown.find((s) => s.doc === `${r.source}/${r.path}`);
    const whole = r.sections.reduce((n, s) => n + s.text.length, 0);
    const where = at.map((s) => s.position - best.position).map((d) => (d >= 0 ? `+${d}` : `${d}`));
    lines.push(
      `  #${i + 1} ${r.relevance.label} conf ${r.confidence.toFixed(2)} ${r.path} best ${best.position}/${r.documentSections}` +
        ` window ${whole} chars; shown ${shown?.text.length ?? 0}${at.length > 0 ? ` ANSWER at ${where.join(',')}` : ''}`,
    );
    if (at.length === 0) return;
    lines.push(`     phrases ${JSON.stringify(phrasesFor(c.q, r))}`);
    for (const s of at)
      lines.push(
        `     answer section ${s.position} (${s.text.length} chars, match ${s.match.toFixed(2)}): ${s.headings.join(' > ')}`,
      );
    lines.push(`     shown: ${(shown?.text ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
  });
  return lines;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const f = (x: number) => x.toFixed(3);

const passages = renderFlag();
const cases = await tuningCases(flag('results') ?? DEFAULT_RESULTS_FILE);
let dropped = 0;
for (const name of [...new Set(cases.map((c) => c.set))]) {
  const rows = cases
    .filter((c) => c.set === name)
    .map((c) => {
      const response = respond(c.q.query, c.results, RESPONSE_BUDGET_CHARS, passages);
      const full = answerAt(c.q, fullWindows(c.results), 5);
      return { c, response, hit1: answerAt(c.q, response.shown, 1), hit5: answerAt(c.q, response.shown, 5), full };
    });
  const lost = rows.filter((r) => r.full === 1 && r.hit5 === 0);
  dropped += lost.length;
  if (!process.argv.includes('--quiet')) for (const r of lost) console.log(explain(r.c, r.response).join('\n'));
  const para = rows.filter((r) => r.c.q.style === 'paraphrase');
  console.log(
    `${name.padEnd(16)} n ${String(rows.length).padStart(3)} hit1 ${f(mean(rows.map((r) => r.hit1)))}` +
      ` hit5 ${f(mean(rows.map((r) => r.hit5)))} whole ${f(mean(rows.map((r) => r.full)))}` +
      ` para ${f(mean(para.map((r) => r.hit5)))} (${f(mean(para.map((r) => r.full)))})` +
      ` dropped ${lost.length} (${f(lost.length / rows.length)})` +
      ` median ${percentile(
        rows.map((r) => r.response.chars),
        50,
      ).toFixed(0)}`,
  );
}
console.log(`found-then-dropped in all: ${dropped} of ${cases.length}`);
