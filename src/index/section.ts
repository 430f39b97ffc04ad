/**
 * A section is the unit the indexer produces and search retrieves: a heading with its content
 * up to the next heading (or one part of an over-long one). Both the indexer (writer) and the
 * server (reader) share this shape through index-data/sections.json.
 */
export interface Section {
  /** Knowledge-base name, shown to users as Source. */
  kb: string;
  /** Document path relative to its knowledge base's root, with forward slashes. */
  path: string;
  /** Document title: frontmatter `title`, else the first H1, else the file name. */
  docTitle: string;
  /** Heading texts from the outermost to this section's own heading; empty before the first heading. */
  headings: string[];
  /** 0-based position of this section within its document. */
  position: number;
  /** Markdown text of the section, its own heading line included. */
  text: string;
}
