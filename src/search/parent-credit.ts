import type { Candidates } from './fuse.js';

/**
 * A section's context: in a question, a section whose parent section also matches gains part of
 * the parent's score. A question's words are spread over a topic's introduction and the
 * subsection that answers ("swap out just one function of a module with a fake … every other
 * export keeps its real behaviour": "module" and "mock" in the page's introduction, "part of a
 * module" in the subsection); the heading path already carries the parent's heading words into
 * each subsection, this carries the parent's text. Short keyword queries name what they look for,
 * and there a subsection stands on its own (tuning: on every query it cost svc a first result).
 */

/** What a subsection gains, × its parent's fused score, in a question of six terms or more. */
const DEFAULT_PARENT_CREDIT = 0.1;

export interface ParentCredit {
  weight: number;
  /** Each section's parent section, −1 for none (src/index/section-parents.ts). */
  parentOf: Int32Array;
}

/** The settings for an index's sections (SearchPolicy `parentCredit`); `parentOf` as stored (section-parents.ts). */
export function parentCreditFor(policy: { parentCredit?: number }, parentOf: Int32Array): ParentCredit {
  return { weight: policy.parentCredit ?? DEFAULT_PARENT_CREDIT, parentOf };
}

/**
 * Adds `weight` × the parent's fused score to every candidate whose parent section is a candidate
 * too, from the scores as fusion left them (a parent's own gain is not passed on); for a question
 * only (on every query it cost svc a first result: bench/results/tuning.md).
 */
export function creditParents(c: Candidates, slotOf: Int32Array, credit: ParentCredit, question: boolean): void {
  const { weight, parentOf } = credit;
  if (weight === 0 || !question) return;
  const gain = new Float64Array(c.count);
  for (let i = 0; i < c.count; i++) {
    const parent = parentOf[c.section[i]!]!;
    const slot = parent < 0 ? -1 : slotOf[parent]! - 1;
    if (slot >= 0) gain[i] = weight * c.score[slot]!;
  }
  for (let i = 0; i < c.count; i++) c.score[i]! += gain[i]!;
}
