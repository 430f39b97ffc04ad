import { type ChunkedDocument, type ChunkOptions, chunkMarkdown } from './chunk.js';
import { asciidocToMarkdown } from './formats/asciidoc.js';
import { type ConvertedDocument, FormatError } from './formats/converted.js';
import { htmlPage } from './formats/html-page.js';
import { notebookToMarkdown } from './formats/notebook.js';
import { type FormatName, formatOf } from './formats/supported.js';
import { textToMarkdown } from './formats/text.js';

/**
 * One corpus file to sections, whatever its format: the entry the parser worker and the inline
 * chunker run. Pure: the file's path (for its extension) and text in, sections out. Formats other
 * than Markdown become Markdown first (indexer/formats/); Markdown dialects are cleaned in the
 * chunker. A converter change that changes what a file becomes must bump CHUNKER_VERSION
 * (chunk.ts), or a reindex keeps the sections an older converter made of unchanged files.
 */
export interface CorpusFile {
  /** Path within its knowledge base, forward slashes: its extension says the format. */
  path: string;
  source: string;
}

const CONVERTERS: Readonly<Record<Exclude<FormatName, 'markdown'>, (source: string) => ConvertedDocument>> = {
  html: htmlPage,
  text: textToMarkdown,
  notebook: notebookToMarkdown,
  asciidoc: asciidocToMarkdown,
};

export function chunkFile(file: CorpusFile, options: ChunkOptions): ChunkedDocument {
  const format = formatOf(file.path) ?? 'markdown';
  if (format === 'markdown') return chunkMarkdown(file.source, options);
  const converted = CONVERTERS[format](file.source);
  const doc = chunkMarkdown(converted.markdown, options);
  return { title: converted.title ?? doc.title, sections: doc.sections };
}

/**
 * What may be said of a failed chunk: a FormatError's message (it never quotes the file), else
 * only the error's class, as a parser's message may quote the document.
 */
export function chunkErrorText(error: unknown): string {
  if (error instanceof FormatError) return error.message;
  // A stack overflow's RangeError may come from another realm (node:vm), so not `instanceof Error`.
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : 'error';
}
