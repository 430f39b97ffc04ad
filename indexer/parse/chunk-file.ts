import { type ChunkedDocument, type ChunkOptions, chunkMarkdown } from '../chunk/chunk.js';
import { type ConvertedDocument, FormatError } from '../formats/converted.js';
import { type FormatName, formatOf } from '../formats/supported.js';

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

type Converter = (source: string) => ConvertedDocument;

/**
 * The converters this thread has loaded. Each is loaded when a file of its format is first met
 * (prepareFile), so a build of Markdown alone loads none of them: importing the HTML path costs
 * about 0.1 s of CPU (chunk-file.ts with every converter imported: 185 ms, without: 90 ms), and
 * Asciidoctor.js 0.4 s.
 */
const loaded = new Map<FormatName, Converter>();

/** Loads what chunkFile needs for this file's format, once per thread: await it before chunkFile. */
export async function prepareFile(path: string): Promise<void> {
  const format = formatOf(path) ?? 'markdown';
  if (format === 'markdown' || loaded.has(format)) return;
  loaded.set(format, await importConverter(format));
}

async function importConverter(format: Exclude<FormatName, 'markdown'>): Promise<Converter> {
  switch (format) {
    case 'html':
      return (await import('../formats/html-page.js')).htmlPage;
    case 'text':
      return (await import('../formats/text.js')).textToMarkdown;
    case 'notebook':
      return (await import('../formats/notebook.js')).notebookToMarkdown;
    case 'asciidoc':
      return (await import('../formats/asciidoc.js')).asciidocToMarkdown;
  }
}

export function chunkFile(file: CorpusFile, options: ChunkOptions): ChunkedDocument {
  const format = formatOf(file.path) ?? 'markdown';
  if (format === 'markdown') return chunkMarkdown(file.source, options);
  const convert = loaded.get(format);
  if (convert === undefined) throw new Error(`chunkFile: await prepareFile() for a ${format} file first`);
  const converted = convert(file.source);
  return chunkMarkdown(converted.markdown, options, converted.title);
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
