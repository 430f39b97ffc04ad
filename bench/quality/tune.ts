import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { buildIndex, type BuildOptions } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { cacheDirOf } from '../../src/settings/commands.js';
import { projectRoot } from '../../src/project-root.js';
import type { PassageOptions } from '../../src/search/passage-options.js';
import type { SearchPolicy } from '../../src/search/search-policy.js';
import { bm25FloorSystem, engineSystem, evaluateAnswers, type AnswerReport, type AnswerSystem } from './answers.js';
import { evaluateOffTopic } from './offtopic.js';
import { RESPONSE_BUDGET_CHARS, RESULT_COUNT } from './response.js';
import { pairedByQuery, type PairedTest } from '../lib/paired.js';
import { assertTuningOnly, labelledSets, splitHalf, type QuerySet } from '../queries.js';

/**
 * The tuning tool: `npx tsx bench/quality/tune.ts '<json list of variants>' ['<json BuildOptions overrides>'] [--budget=<chars>]`.
 * A variant is a JSON object of SearchPolicy knobs, or the string "bm25 floor" (plain BM25, ±15
 * sections); its key "render", if any, overrides the response's fitted numbers (DEFAULT_PASSAGES in
 * src/search/passage-options.ts) for that variant alone, passed as an argument (the defaults never change). The first variant is the baseline. Every variant is run on the tuning half of every
 * labelled set and nothing else (bench/queries.ts): per corpus it prints Hit@1, Hit@5 (answer
 * shown within the response budget; without it in brackets), nDCG@10, paraphrase nDCG@10 and
 * median characters of the response text, and each later variant's paired difference from the
 * baseline with its sign-flip p-value (bench/lib/paired.ts).
 * Held-out halves are what `npm run bench` reports; this tool refuses to evaluate them.
 */

export const FLOOR_VARIANT = 'bm25 floor';
const variantsSchema = z.array(z.union([z.literal(FLOOR_VARIANT), z.record(z.string(), z.unknown())])).min(1);
type Variant = typeof FLOOR_VARIANT | (SearchPolicy & { render?: Partial<PassageOptions> });

export class TuneUsageError extends Error {}

async function systemFor(variant: Variant, indexDir: string, embedder: Embedder): Promise<AnswerSystem> {
  if (variant === FLOOR_VARIANT) return bm25FloorSystem(indexDir);
  const { render: _render, ...policy } = variant;
  return engineSystem('variant', indexDir, embedder, policy);
}

/** The response's fitted numbers for one variant: the shipped ones with the variant's overrides. */
function fitOf(variant: Variant): Partial<PassageOptions> {
  return variant === FLOOR_VARIANT ? {} : (variant.render ?? {});
}

const f = (x: number) => x.toFixed(3);
const signed = (t: PairedTest) =>
  `${t.meanDifference < 0 ? '−' : '+'}${f(Math.abs(t.meanDifference))} p ${t.p < 0.001 ? '<0.001' : t.p.toFixed(3)}`;

function line(set: QuerySet, report: AnswerReport, baseline: AnswerReport | undefined): string {
  const o = report.overall;
  const vs = (value: number, metric: (r: AnswerReport['perQuery'][number]) => number) =>
    baseline === undefined
      ? f(value)
      : `${f(value)} (${signed(pairedByQuery(baseline.perQuery, report.perQuery, metric))})`;
  const para = report.byStyle.paraphrase;
  return [
    `  ${set.name.padEnd(15)} n ${String(o.queries).padStart(3)}`,
    `hit1 ${vs(o.hit1, (q) => q.hit1)}`,
    `hit5 ${vs(o.hit5, (q) => q.hit5)}`,
    `(full windows ${f(o.hit1Full)}/${f(o.hit5Full)})`,
    `ndcg ${vs(o.ndcg10, (q) => q.ndcg10)}`,
    `para ${para ? f(para.ndcg10) : '–'}`,
    `chars ${o.medianChars.toFixed(0)}`,
    `rep ${f(o.meanRepeats)}`,
  ].join('  ');
}

async function main(): Promise<void> {
  const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  // `--budget=<chars>`: a tighter response budget than the shipped one, to stress how the fitter
  // chooses what to keep (on the tuning halves, where the default budget seldom binds).
  const budgetFlag = flags.find((a) => a.startsWith('--budget='));
  const budgetChars = budgetFlag === undefined ? RESPONSE_BUDGET_CHARS : Number(budgetFlag.slice('--budget='.length));
  if (!Number.isInteger(budgetChars) || budgetChars < 1000)
    throw new TuneUsageError('--budget must be a whole number of characters, at least 1000');
  if (args.some((a) => /held/i.test(a)))
    throw new TuneUsageError('tune.ts evaluates tuning halves only; held-out figures come from `npm run bench`');
  const parsed = variantsSchema.safeParse(JSON.parse(args[0] ?? '[{}]'));
  if (!parsed.success)
    throw new TuneUsageError(
      `the first argument must be a JSON list of SearchPolicy objects or "${FLOOR_VARIANT}": ${parsed.error.issues[0]?.message}`,
    );
  const variants = parsed.data as Variant[];
  const build = JSON.parse(args[1] ?? '{}') as Partial<BuildOptions>;
  const tag = args[1] ? `-${createHash('sha256').update(args[1]).digest('hex').slice(0, 8)}` : '';
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  const sets = labelledSets(projectRoot()).map((set) => splitHalf(set, 'tuning'));
  const dirs: string[] = [];
  for (const set of sets) {
    assertTuningOnly([...set.queries, ...set.offTopic]);
    const dir = join(cacheDirOf(process.env), 'bench', `${set.name}-index${tag}`);
    await buildIndex({ corpusDirs: [set.corpusDir], outDir: dir, embedder, ...build });
    dirs.push(dir);
  }
  console.log(
    `Tuning halves only: ${sets.map((s) => `${s.name} ${s.queries.length} queries`).join(', ')}. Differences are paired against variant #0.`,
  );
  const baselines: AnswerReport[] = [];
  for (const [v, variant] of variants.entries()) {
    console.log(`#${v} ${v === 0 ? '(baseline) ' : ''}${JSON.stringify(variant)}`);
    for (const [i, set] of sets.entries()) {
      const system = await systemFor(variant, dirs[i]!, embedder);
      const report = await evaluateAnswers(set.queries, system, {
        budgetChars,
        resultCount: RESULT_COUNT,
        passages: fitOf(variant),
      });
      const off = await evaluateOffTopic(set, system);
      await system.close();
      if (v === 0) baselines.push(report);
      console.log(
        `${line(set, report, v === 0 ? undefined : baselines[i])}  off-topic n ${off.queries} chars ${off.medianChars.toFixed(0)} starred ${f(off.starred)}`,
      );
    }
  }
  await embedder.dispose();
}

main().catch((error: unknown) => {
  console.error(error instanceof TuneUsageError ? error.message : error);
  process.exitCode = 1;
});
