import { extname } from 'node:path';

/**
 * Which files the indexer reads, by extension, and what it says about those it does not. Kept
 * apart from the converters so that walking a corpus loads no parser.
 */

export type FormatName = 'markdown' | 'html' | 'text' | 'notebook' | 'asciidoc';

export const FORMATS: Readonly<Record<FormatName, { label: string; extensions: readonly string[] }>> = {
  markdown: { label: 'Markdown', extensions: ['.md', '.markdown', '.mdx'] },
  html: { label: 'HTML', extensions: ['.html', '.htm'] },
  text: { label: 'plain text', extensions: ['.txt'] },
  notebook: { label: 'a Jupyter notebook', extensions: ['.ipynb'] },
  asciidoc: { label: 'AsciiDoc', extensions: ['.adoc', '.asciidoc'] },
};

const BY_EXTENSION = new Map<string, FormatName>(
  Object.entries(FORMATS).flatMap(([name, format]) => format.extensions.map((e) => [e, name as FormatName] as const)),
);

/** Every extension the indexer reads, for messages: ".md, .markdown, …". */
export const SUPPORTED_EXTENSIONS = [...BY_EXTENSION.keys()];

/**
 * Documentation formats the indexer does not read, with why and what to do instead: printed
 * once per build with the count of such files (docs/formats.md).
 */
export const UNSUPPORTED_DOCUMENTS: Readonly<Record<string, string>> = {
  '.rst':
    'reStructuredText has no well-kept JavaScript parser: build the HTML with Sphinx (sphinx-build -b html) and index the HTML folder',
  '.rest': 'reStructuredText has no well-kept JavaScript parser: build the HTML with Sphinx and index the HTML folder',
  '.pdf': 'PDF is not read: index the document it was made from, or its HTML',
  '.docx': 'Word documents are not read: save them as HTML or Markdown',
  '.odt': 'OpenDocument text is not read: save it as HTML or Markdown',
  '.tex': 'LaTeX is not read: convert it to HTML or Markdown (pandoc)',
  '.org': 'Org mode is not read: export it to Markdown or HTML',
  '.textile': 'Textile is not read: convert it to Markdown or HTML (pandoc)',
  '.wiki': 'wiki markup is not read: export it to HTML or Markdown',
};

/** The file's format by its extension (any case), or undefined when the indexer does not read it. */
export function formatOf(path: string): FormatName | undefined {
  return BY_EXTENSION.get(extname(path).toLowerCase());
}

/** A file name without the extension that made it a document: the title of a document that names none. */
export function withoutExtension(name: string): string {
  return formatOf(name) === undefined ? name : name.slice(0, name.length - extname(name).length);
}
