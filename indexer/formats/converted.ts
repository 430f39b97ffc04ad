/** What a format module makes of a file: Markdown for the chunker, and the title the file declares. */
export interface ConvertedDocument {
  /** The title the file itself gives (an HTML `<title>`, an AsciiDoc document title); else the chunker's (its first H1). */
  title: string | undefined;
  markdown: string;
}

/**
 * A file that is not what its extension says (a `.ipynb` that is not a notebook). Its message
 * names what is wrong without quoting the file, so it may be printed as it is.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}
