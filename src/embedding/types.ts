/** What search and the indexer need from an embedding model, whichever folder or id it came from. */
export interface Embedder {
  /** The model id or folder as configured (recorded in the manifest). */
  readonly modelId: string;
  /** Vector length. */
  readonly dimensions: number;
  /** sha256 over the model's files, so an index is never searched with a different model. */
  readonly checksum: string;
  /** Unit-length (L2-normalised) mean-pooled vectors, one per input text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Frees the inference session. */
  dispose(): Promise<void>;
}
