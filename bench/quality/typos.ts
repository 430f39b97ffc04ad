import type { QuerySet } from '../queries.js';

/**
 * The labelled queries with one typo each, to measure typo tolerance: the query's longest word
 * (letters only, 5 or more) gets one edit in its middle, the kind cycling through the four
 * common ones: two letters swapped, one dropped, one doubled, one replaced by the next letter.
 * Deterministic, so every run sees the same typos.
 */

const TYPOS = [
  (w: string, m: number) => w.slice(0, m - 1) + w[m] + w[m - 1] + w.slice(m + 1),
  (w: string, m: number) => w.slice(0, m) + w.slice(m + 1),
  (w: string, m: number) => w.slice(0, m) + w[m] + w.slice(m),
  (w: string, m: number) =>
    w.slice(0, m) +
    (w[m] === 'z' ? 'a' : w[m] === 'Z' ? 'A' : String.fromCharCode(w.charCodeAt(m) + 1)) +
    w.slice(m + 1),
] as const;

export function withTypo(query: string, kind: number): string {
  const words = query.match(/\p{L}{5,}/gu) ?? [];
  const longest = words.reduce<string | undefined>(
    (a, w) => (a === undefined || w.length > a.length ? w : a),
    undefined,
  );
  if (longest === undefined) return query;
  const typo = TYPOS[kind % TYPOS.length]!(longest, Math.floor(longest.length / 2));
  return query.replace(longest, typo);
}

export function misspelt(set: QuerySet): QuerySet {
  return { ...set, queries: set.queries.map((q, i) => ({ ...q, query: withTypo(q.query, i) })) };
}
