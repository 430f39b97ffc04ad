import { type ChunkedDocument, type ChunkOptions, chunkMarkdown } from './chunk.js';

/**
 * One corpus file to sections, whatever its format: the entry the parser worker and the inline
 * chunker run. Pure: the file's path (for its extension) and text in, sections out. Formats other
 * than Markdown become Markdown first; Markdown dialects are cleaned in the chunker.
 */
export interface CorpusFile {
  /** Path within its knowledge base, forward slashes: its extension says the format. */
  path: string;
  source: string;
}

export function chunkFile(file: CorpusFile, options: ChunkOptions): ChunkedDocument {
  return chunkMarkdown(file.source, options);
}
