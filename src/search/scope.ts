import type { StoredDocument } from '../index/format.js';
import type { LexicalHits } from '../index/lexical-accumulator.js';
import type { VectorHits } from '../index/vector-index.js';
import { SearchInputError } from './search-input.js';

/**
 * A search scoped to one knowledge base: its sections only, filtered where candidates are made
 * (before fusion and ranking), so a scoped search ranks that knowledge base's pages as they rank
 * among themselves rather than what is left of an unscoped top list.
 */

/** The sections of one knowledge base, by section; undefined for a search of all of them. */
export type SectionFilter = (section: number) => boolean;

export class KnowledgeBaseScope {
  /** Knowledge base number + 1 by document (0 never occurs: every document has one). */
  private readonly docKb: Uint16Array;
  private readonly numbers = new Map<string, number>();

  constructor(
    documents: readonly StoredDocument[],
    private readonly sectionDoc: Int32Array,
  ) {
    this.docKb = new Uint16Array(documents.length);
    documents.forEach((doc, i) => {
      let n = this.numbers.get(doc.kb);
      if (n === undefined) this.numbers.set(doc.kb, (n = this.numbers.size + 1));
      this.docKb[i] = n;
    });
  }

  /** The filter for `name`, or undefined for all; a name not served is a SearchInputError naming those that are. */
  filter(name: string | undefined): SectionFilter | undefined {
    if (name === undefined) return undefined;
    const n = this.numbers.get(name);
    if (n === undefined) throw new UnknownKnowledgeBaseError(name, [...this.numbers.keys()]);
    const { docKb, sectionDoc } = this;
    return (section) => docKb[sectionDoc[section]!] === n;
  }
}

/** A knowledge base no page of the index belongs to. */
export class UnknownKnowledgeBaseError extends SearchInputError {
  override name = 'UnknownKnowledgeBaseError';

  constructor(name: string, served: readonly string[]) {
    super(unknownKnowledgeBaseMessage(name, served));
  }
}

export function unknownKnowledgeBaseMessage(name: string, served: readonly string[]): string {
  const names = served.map((s) => `"${s}"`).join(', ');
  return `no knowledge base is named "${name}": pass one of ${names}, or leave knowledgeBase out to search them all`;
}

/** The lexical hits within the filter (a new object; the arrays are copied). */
export function hitsWithin(hits: LexicalHits, keep: SectionFilter): LexicalHits {
  const kept: number[] = [];
  for (let i = 0; i < hits.sections.length; i++) if (keep(hits.sections[i]!)) kept.push(i);
  const pick = <A extends Int32Array | Float64Array>(from: A, to: A): A => {
    kept.forEach((i, k) => {
      to[k] = from[i]!;
    });
    return to;
  };
  return {
    ...hits,
    sections: pick(hits.sections, new Int32Array(kept.length)),
    scores: pick(hits.scores, new Float64Array(kept.length)),
    coverage: pick(hits.coverage, new Float64Array(kept.length)),
    matched: pick(hits.matched, new Int32Array(kept.length)),
  };
}

/** The vector neighbours within the filter, best first still. */
export function neighboursWithin(near: VectorHits, keep: SectionFilter): VectorHits {
  const ids: number[] = [];
  const scores: number[] = [];
  near.ids.forEach((id, i) => {
    if (!keep(id)) return;
    ids.push(id);
    scores.push(near.scores[i]!);
  });
  return { ids, scores };
}
