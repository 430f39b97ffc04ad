import type { SearchResult, WindowSection } from '../../search/types.js';
import { cutMarkdown } from './cut-markdown.js';
import { cachedSentenceKeys, type Passage, type SectionPassages } from './passage-blocks.js';
import { type ScoredResult, scorePassages } from './passage-score.js';
import { type Chosen, clipLimit, type SelectMeasure, type SelectOptions, type Selection } from './select.js';
import { novelty } from './sentences.js';

/**
 * Passages, not windows, when the windows do not fit the budget: every passage of every result is
 * scored (passage-score.ts), and the budget goes to the passages with the most expected answer per
 * character across all results, chosen on numbers (each piece's cost computed once: a result's
 * header and outline, a section's marker and heading line, a passage and its gap mark). The first
 * result's best passages are taken first, and every kept result gets its best one, in rank order,
 * as many as fit. A result's label plays no part: its rank only weighs its passages
 * (`rankDecay`). Shown in page order under their heading paths, gaps marked `[…]`.
 */

/** A gap mark between passages of one section ("\n[…]\n"), charged with every passage and once more per section. */
const GAP = '[…]';
const GAP_COST = GAP.length + 2;
/** Passages that score nothing are still worth more than an empty budget: context, nearest the best first. */
const CONTEXT = 1e-3;

interface Pick {
  f: Fitting;
  at: number;
  sp: SectionPassages;
  passage: Passage;
  value: number;
  cost: number;
  /** What opening its section costs, when it is not open yet. */
  opening: number;
  /** Its value per character, once the seeds are chosen (choosePassages). */
  density: number;
}

interface Fitting {
  scored: ScoredResult;
  picked: Set<Passage>;
  opened: Set<SectionPassages>;
  /** Characters chosen per section, held under the section's clip limit. */
  chars: Map<SectionPassages, number>;
}

function picksOf(f: Fitting, at: number, options: SelectOptions, measure: SelectMeasure): Pick[] {
  const { scored } = f;
  const best = scored.sections.find((s) => s.section.isBest)?.section.position ?? 0;
  const weight = 1 / (1 + options.rankDecay * at);
  return scored.sections.flatMap((sp) => {
    const limit = clipLimit(sp.section, at, options);
    const opening = sectionCost(sp, at, measure);
    return sp.passages.map((passage) => {
      const score = scored.score.get(passage) ?? 0;
      const value =
        score >= options.minBlockScore
          ? score * weight
          : CONTEXT * weight * (1 / (1 + Math.abs(sp.section.position - best)));
      const cost = Math.min(passage.text.length, limit) + GAP_COST;
      return { f, at, sp, passage, value, cost, opening, density: 0 };
    });
  });
}

/** What opening `sp` (its marker, heading line and closing gap) costs. */
function sectionCost(sp: SectionPassages, at: number, measure: SelectMeasure): number {
  return measure.marker(sp.section, at) + (sp.heading?.length ?? 0) + 1 + GAP_COST;
}

class Budget {
  constructor(
    public used: number,
    private readonly limit: number,
  ) {}

  /** Takes `p` when it fits (opening its section when needed) and is not all said already; whether it did. */
  take(p: Pick, said: Set<string>, options: SelectOptions, force = false): boolean {
    const { f } = p;
    if (f.picked.has(p.passage)) return false;
    if (p.passage.keys.length > 0 && p.passage.keys.every((k) => said.has(k))) return false;
    const open = f.opened.has(p.sp) ? 0 : p.opening;
    const inSection = (f.chars.get(p.sp) ?? 0) + p.cost;
    if (this.used + open + p.cost > this.limit && !force) return false;
    if (inSection > clipLimit(p.sp.section, p.at, options) + GAP_COST && f.chars.has(p.sp)) return false;
    this.used += open + p.cost;
    f.opened.add(p.sp);
    f.picked.add(p.passage);
    f.chars.set(p.sp, inSection);
    for (const k of p.passage.keys) said.add(k);
    return true;
  }
}

function byValue(a: Pick, b: Pick): number {
  return b.value - a.value;
}

function byDensity(a: Pick, b: Pick): number {
  return b.density - a.density;
}

/** The kept results, each with its best passage, in rank order as many as fit (the first always, with its best few). */
function seed(
  scored: readonly ScoredResult[],
  options: SelectOptions,
  measure: SelectMeasure,
  budget: Budget,
  said: Set<string>,
): { fitted: Fitting[]; rest: Pick[] } {
  const fitted: Fitting[] = [];
  const rest: Pick[] = [];
  const bestSaid = new Set<string>();
  for (const scoredResult of scored) {
    const at = fitted.length;
    const keys = cachedSentenceKeys(scoredResult.result.sections.find((x) => x.isBest)?.text ?? '');
    if (at > 0 && novelty(keys, bestSaid) === 0) continue;
    const header = measure.result(scoredResult.result, at);
    if (at > 0 && budget.used + header > options.budgetChars) continue;
    const f: Fitting = { scored: scoredResult, picked: new Set(), opened: new Set(), chars: new Map() };
    const picks = picksOf(f, at, options, measure).sort(byValue);
    budget.used += header;
    // Its best match always shows (its strongest passage not said already), and the first result's best few passages.
    const ofBest = picks.filter((p) => p.sp.section.isBest);
    const fromBest = ofBest.find((p) => budget.take(p, said, options));
    // The first result's best match shows however long its passage (it is clipped).
    if (at === 0 && fromBest === undefined && ofBest[0] !== undefined) budget.take(ofBest[0], said, options, true);
    if (at === 0) for (const p of picks.slice(0, options.firstBlocks)) budget.take(p, said, options);
    if (f.picked.size === 0 && at > 0) {
      budget.used -= header;
      continue;
    }
    rest.push(...picks.filter((p) => !f.picked.has(p.passage)));
    for (const k of keys) bestSaid.add(k);
    fitted.push(f);
  }
  return { fitted, rest };
}

/** A section's chosen passages in page order, with `[…]` where passages are skipped. */
function sectionText(sp: SectionPassages, picked: ReadonlySet<Passage>, limit: number): string {
  const out: string[] = sp.heading === undefined ? [] : [sp.heading, ''];
  let next = sp.heading === undefined ? 0 : 1;
  const shown = sp.passages.filter((p) => picked.has(p));
  for (const p of shown) {
    const skipped = sp.passages.some((q) => q.start >= next && q.end <= p.start);
    if (skipped) out.push(GAP, '');
    out.push(cutMarkdown(p.text, limit).text, '');
    next = p.end;
  }
  if (sp.passages.some((q) => q.start >= next)) out.push(GAP);
  return out.join('\n').trim();
}

function chosenOf(f: Fitting, at: number, options: SelectOptions): Chosen {
  const sections: WindowSection[] = f.scored.sections
    .filter((sp) => f.opened.has(sp))
    .map((sp) => ({ ...sp.section, text: sectionText(sp, f.picked, clipLimit(sp.section, at, options) - GAP_COST) }));
  const shown = new Set(sections.map((s) => s.position));
  return { result: f.scored.result, sections, leftOut: f.scored.result.sections.filter((s) => !shown.has(s.position)) };
}

/**
 * Chooses passages within a budget: the passages are scored once (scoring does not depend on the
 * budget), so choosing again with the room elision freed (render.ts) costs only the choosing.
 */
export function passageChooser(
  results: readonly SearchResult[],
  options: SelectOptions,
  measure: SelectMeasure,
): (budgetChars: number) => Selection {
  let scored: ScoredResult[] | undefined;
  return (budgetChars) => {
    const kept = results.filter((r, i) => i === 0 || r.confidence >= options.minConfidence);
    scored ??= scorePassages(measure.term, kept, options);
    return choosePassages(results.length, scored, { ...options, budgetChars }, measure);
  };
}

function choosePassages(
  resultCount: number,
  scored: readonly ScoredResult[],
  options: SelectOptions,
  measure: SelectMeasure,
): Selection {
  const budget = new Budget(measure.overhead, options.budgetChars);
  const said = new Set<string>();
  const { fitted, rest } = seed(scored, options, measure, budget, said);
  // Most answer per character first; a section not yet open is charged its marker too.
  for (const p of rest)
    p.density = p.value / (Math.max(p.cost, options.minBlockChars) + (p.f.opened.has(p.sp) ? 0 : p.opening));
  rest.sort(byDensity);
  for (const p of rest) budget.take(p, said, options);
  return {
    chosen: fitted.map((f, i) => chosenOf(f, i, options)),
    omittedResults: resultCount - fitted.length,
    used: budget.used,
  };
}
