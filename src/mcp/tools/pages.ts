import { pageUri } from './page-uri.js';
import { SvcDocsError } from '../../errors.js';

/**
 * Indexed pages as MCP resources: listing (paginated), lookup by knowledge base and path, and a
 * page's Markdown (its sections' text in order). Pure functions of the loaded index.
 */

/** What of an indexed document the page resources need (the loaded index's document entries). */
export interface StoredDocument {
  kb: string;
  path: string;
  title: string;
  /** Sections of a document are contiguous: firstSection … firstSection + sectionCount - 1. */
  firstSection: number;
  sectionCount: number;
}

export interface StoredSection {
  text: string;
}

/** What of a loaded index the page resources need. */
export interface PageIndex {
  readonly documents: readonly StoredDocument[];
  /** Read by range: a served index keeps its text on disk (src/index/section-store.ts). */
  readonly sections: { readonly length: number; slice(from?: number, to?: number): readonly StoredSection[] };
}

export const PAGE_MIME_TYPE = 'text/markdown';

/** Pages per resources/list response. */
const PAGES_PER_LIST = 100;

interface PageResource {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
}

export class InvalidCursorError extends SvcDocsError<'invalid_cursor'> {
  override name = 'InvalidCursorError';

  constructor(message: string) {
    super('invalid_cursor', message);
  }
}

function resourceOf(doc: StoredDocument): PageResource {
  return { uri: pageUri(doc.kb, doc.path), name: `${doc.kb}/${doc.path}`, title: doc.title, mimeType: PAGE_MIME_TYPE };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`pages:${offset}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^pages:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match)
    throw new InvalidCursorError(
      `invalid cursor "${cursor.slice(0, 40)}": pass the nextCursor of the previous resources/list answer, or none`,
    );
  return Number(match[1]);
}

/** One page of the listing: `cursor` is the previous answer's nextCursor, absent for the first. */
export function listPages(
  index: PageIndex,
  cursor: string | undefined,
  perPage = PAGES_PER_LIST,
): { resources: PageResource[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const resources = index.documents.slice(offset, offset + perPage).map(resourceOf);
  const next = offset + perPage;
  return next < index.documents.length ? { resources, nextCursor: encodeCursor(next) } : { resources };
}

const lookups = new WeakMap<PageIndex, Map<string, number>>();

/** The document of knowledge base `source` at `path`, or undefined. */
export function findPage(index: PageIndex, source: string, path: string): StoredDocument | undefined {
  let byKey = lookups.get(index);
  if (!byKey) lookups.set(index, (byKey = new Map(index.documents.map((doc, i) => [`${doc.kb}\u0000${doc.path}`, i]))));
  const i = byKey.get(`${source}\u0000${path}`);
  return i === undefined ? undefined : index.documents[i];
}

/** The page's Markdown: its sections' text in order, one blank line apart. */
export function pageMarkdown(index: PageIndex, doc: StoredDocument): string {
  return index.sections
    .slice(doc.firstSection, doc.firstSection + doc.sectionCount)
    .map((s) => s.text.replace(/^\n+|\n+$/g, ''))
    .join('\n\n');
}
