import type { Embedder } from '../../src/embedding/types.js';
import { LexicalBuilder } from '../../src/index/build-lexical.js';
import type { StoredDocument, StoredSection } from '../../src/index/format.js';
import type { LexicalData } from '../../src/index/lexical-data.js';
import type { VectorMatrix } from '../../src/index/vector-index.js';
import { type EmbedOptions, StreamedEmbedding } from './embed.js';
import { embeddingText, lexicalFields } from './section-text.js';
import { VectorCache } from './vector-cache.js';

/**
 * A full build's sections embedded (through the vector cache) and tokenized for the lexical
 * statistics as each document's parse comes in, in corpus order, while the parser processes go
 * on with the next documents: the main thread's share of a build no longer waits for the last
 * document to be parsed (issue 42; docs/benchmarks.md, "Building on every core"). Taken in corpus
 * order, the sections give the vectors and statistics a build after the parse gives, byte for
 * byte (test/indexer/parse-workers.test.ts).
 */

export interface StreamedContent {
  vectors: { matrix: VectorMatrix; embedded: number };
  lexical: LexicalData;
}

export class StreamedSections {
  private opened: Promise<{ embedding: StreamedEmbedding; cache: VectorCache }> | undefined;
  private readonly lexical = new LexicalBuilder();

  /** `embedder`: loading, while the first documents parse. */
  constructor(
    private readonly embedder: Promise<Embedder>,
    private readonly vectorCacheDir: string,
    private readonly options: EmbedOptions,
    private readonly log: (line: string) => void,
  ) {}

  /** The next document's sections (chunk-corpus.ts's OnDocument): embedded and tokenized. */
  readonly add = async (
    doc: StoredDocument,
    sections: readonly StoredSection[],
    at: number,
    of: number,
  ): Promise<void> => {
    const { embedding } = await this.open();
    await embedding.add(sections.map((s) => embeddingText(doc.title, s)));
    for (const s of sections) this.lexical.add(lexicalFields(doc.title, s));
    this.options.onProgress?.({ phase: 'index-documents', done: at + 1, total: of });
  };

  /** Every section's vector and the lexical statistics; the cache saved first (a crash after costs no embedding next time). */
  async finish(): Promise<StreamedContent> {
    const { embedding, cache } = await this.open();
    const vectors = await embedding.finish();
    await cache.save();
    return { vectors, lexical: this.lexical.finish() };
  }

  private open() {
    this.opened ??= this.embedder.then(async (embedder) => {
      const cache = await VectorCache.open(this.vectorCacheDir, embedder.checksum, embedder.dimensions, this.log);
      return { embedding: new StreamedEmbedding(embedder, cache, this.options), cache };
    });
    return this.opened;
  }
}
