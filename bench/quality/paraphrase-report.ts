import { chooseFor, judge, type Judged, type Outcome } from './paraphrase-choice.js';

/**
 * The leave-one-corpus-out table of bench/quality/paraphrase-loco.ts (and of any probe that produces
 * outcomes the same way): for each corpus, the variant chosen on the other trained corpora's
 * tuning halves, judged on its held-out half (a set beyond the six: on all its queries).
 */

/** The corpora choices are trained on; any other labelled set is a left-out judge only. */
export const TRAINED = ['svc', 'argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo'];

export interface QueryOutcome extends Outcome {
  half: 'tuning' | 'heldout';
}

const f = (x: number) => x.toFixed(3);

function row(name: string, chosen: number, before: Judged, after: Judged): string {
  const pair = (a: number, b: number) => `${f(a)} → ${f(b)}`;
  return `| ${name} | ${before.queries} (${before.paraphrases}) | #${chosen} | ${pair(before.paraHit5Full, after.paraHit5Full)} | ${pair(before.paraHit5, after.paraHit5)} | ${pair(before.otherHit1, after.otherHit1)} | ${pair(before.otherHit5, after.otherHit5)} | ${pair(before.otherHit5Full, after.otherHit5Full)} |`;
}

/** Tuning halves only, per variant and trained corpus: paraphrase windows Hit@5 / other Hit@1 / other Hit@5. */
function tuningTable(sets: readonly string[], results: QueryOutcome[][][]): void {
  const trained = sets.map((s, i) => ({ s, i })).filter(({ s }) => TRAINED.includes(s));
  console.log(
    `\nTuning halves (para windows Hit@5 / other Hit@1 / other Hit@5): ${trained.map(({ s }) => s).join(', ')}`,
  );
  results.forEach((byCorpus, v) => {
    const cells = trained.map(({ i }) => {
      const j = judge(byCorpus[i]!.filter((q) => q.half === 'tuning'));
      return `${f(j.paraHit5Full)}/${f(j.otherHit1)}/${f(j.otherHit5)}`;
    });
    console.log(`#${v} ${cells.join('  ')}`);
  });
}

function report(sets: readonly string[], results: QueryOutcome[][][], variants: unknown[]): void {
  const rows: { name: string; chosen: number; before: Judged; after: Judged }[] = [];
  sets.forEach((set, s) => {
    const trained = TRAINED.includes(set);
    const training = sets
      .map((other, o) => ({ other, o }))
      .filter(({ other, o }) => o !== s && TRAINED.includes(other))
      .map(({ other, o }) => ({
        corpus: other,
        byVariant: results.map((byVariant) => byVariant[o]!.filter((q) => q.half === 'tuning')),
      }));
    const chosen = chooseFor(set, training);
    const judged = (v: number) => results[v]![s]!.filter((q) => !trained || q.half === 'heldout');
    rows.push({
      name: trained ? set : `${set} (all)`,
      chosen,
      before: judge(judged(0)),
      after: judge(judged(chosen)),
    });
  });
  rows.sort((a, b) => a.after.paraHit5Full - b.after.paraHit5Full);
  variants.forEach((v, i) => console.log(`#${i} ${JSON.stringify(v)}`));
  console.log(
    '\nLeft-out, held-out halves (new sets: all queries), worst corpus first; before (#0) → after (chosen):\n',
  );
  console.log(
    '| corpus | n (para) | chosen | para Hit@5 windows | para Hit@5 12k | other Hit@1 | other Hit@5 12k | other Hit@5 windows |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(row(r.name, r.chosen, r.before, r.after));
  const gain = rows.map((r) => r.after.paraHit5Full - r.before.paraHit5Full);
  console.log(
    `\nmean paraphrase whole-window Hit@5 change: ${gain.reduce((a, b) => a + b, 0) / gain.length >= 0 ? '+' : ''}${f(gain.reduce((a, b) => a + b, 0) / gain.length)}`,
  );
}

/** Prints the left-out table, worst corpus first, and the tuning halves per variant. */
export function reportLoco(sets: readonly string[], results: QueryOutcome[][][], variants: unknown[]): void {
  report(sets, results, variants);
  tuningTable(sets, results);
}
