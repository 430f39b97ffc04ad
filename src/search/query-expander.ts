import type { LexicalIndex } from '../index/lexical-index.js';
import type { FusionSettings } from '../index/manifest.js';
import { stem } from '../index/tokenize.js';
import { expandQuery, type ExpansionTable, type ParsedQuery } from './query.js';
import type { DetailedSearch, Embed } from './searcher-types.js';

/** A query ready for the lexical stage: its weighted terms (the user's own, plus expansions) and, when expanded, its vector. */
export interface PreparedQuery {
  parsed: ParsedQuery;
  terms: Map<string, number>;
  expansions: DetailedSearch['expansions'];
  vector: Float32Array | undefined;
}

/**
 * Query expansion with the model's nearest corpus words (query.ts `expandQuery`), for a searcher
 * whose settings turn it on: the query is embedded first, with the words whose vectors the index
 * does not hold.
 */
export class QueryExpander {
  /** Row of each corpus word in the expansion table. */
  private readonly rowOf = new Map<string, number>();

  constructor(
    private readonly table: ExpansionTable,
    private readonly lexical: LexicalIndex,
    private readonly fusion: FusionSettings,
  ) {
    table.terms.forEach((t, i) => this.rowOf.set(t, i));
  }

  /** Embeds the query and the words the index has no vector for, and expands it with the model's neighbours. */
  async prepare(text: string, parsed: ParsedQuery, embed: Embed): Promise<PreparedQuery> {
    // Words already in the corpus vocabulary have their vectors in the index; embed only the rest.
    const unknownWords = parsed.words.filter((w) => !this.rowOf.has(w));
    const embedded = await embed([text, ...unknownWords]);
    const wordVectors = parsed.words.map((w) => {
      const row = this.rowOf.get(w);
      if (row === undefined) return embedded[1 + unknownWords.indexOf(w)]!;
      const { dims, data } = this.table.vectors;
      return data.subarray(row * dims, (row + 1) * dims);
    });
    const maxIdf = this.lexical.idf('\u0000absent');
    const expanded = expandQuery(
      parsed,
      wordVectors,
      this.table,
      this.fusion,
      (w) => this.lexical.idf(stem(w)) / maxIdf,
    );
    return { parsed, terms: expanded.terms, expansions: expanded.added, vector: embedded[0] };
  }
}
