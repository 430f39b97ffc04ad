import { chunkMarkdown } from '../../indexer/chunk/chunk.js';

/** A page's sections joined: the cleaned page as the chunker stores it. */
export function chunkedText(markdown: string): string {
  return chunkMarkdown(markdown)
    .sections.map((s) => s.text)
    .join('');
}
