import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { pageParts } from './page-parts.js';
import { PAGE_URI_TEMPLATE, pagePartUri, pageUri, parsePageUri } from './page-uri.js';
import {
  findPage,
  InvalidCursorError,
  listPages,
  PAGE_MIME_TYPE,
  pageMarkdown,
  type PageIndex,
  type StoredDocument,
} from './pages.js';

/**
 * Registers the indexed pages as MCP resources on `server`: one template (PAGE_URI_TEMPLATE),
 * a paginated resources/list and resources/read returning a page's Markdown: whole when it fits
 * the page budget, else in parts (`?part=<n>`), each within the budget and naming the next.
 * `pages` is read per request, so a reloaded index is listed and read at once.
 */

/** Room kept in a part for the line that says which part it is and where the next one is. */
function footerRoom(doc: StoredDocument): number {
  return 120 + pageUri(doc.kb, doc.path).length;
}

/** Long pages' parts, per loaded index, the most recently read kept: cutting a 1 MB page costs milliseconds. */
const partsOf = new WeakMap<PageIndex, Map<StoredDocument, { budgetChars: number; parts: string[] }>>();
const PAGES_KEPT = 32;

function partsOfPage(index: PageIndex, doc: StoredDocument, budgetChars: number): string[] {
  let kept = partsOf.get(index);
  if (kept === undefined) partsOf.set(index, (kept = new Map()));
  let entry = kept.get(doc);
  if (entry?.budgetChars !== budgetChars) {
    const markdown = pageMarkdown(index, doc);
    const room = Math.max(budgetChars / 2, budgetChars - footerRoom(doc));
    entry = { budgetChars, parts: markdown.length <= budgetChars ? [markdown] : pageParts(markdown, room) };
    if (kept.size >= PAGES_KEPT) kept.delete(kept.keys().next().value!);
  }
  // Most recently read last: the first key is the one to drop.
  kept.delete(doc);
  kept.set(doc, entry);
  return entry.parts;
}

/** Part `part` (from 1) of the page, with the line naming it and the next part. */
function pagePart(index: PageIndex, doc: StoredDocument, part: number, budgetChars: number): string {
  const parts = partsOfPage(index, doc, budgetChars);
  const uri = pageUri(doc.kb, doc.path);
  if (part > parts.length)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${uri} has ${parts.length} part${parts.length === 1 ? '' : 's'} (1-${parts.length}); part ${part} is past the end.`,
    );
  if (parts.length === 1) return parts[0]!;
  const where =
    part < parts.length
      ? `Part ${part} of ${parts.length} of this page. Next part: ${pagePartUri(doc.kb, doc.path, part + 1)}`
      : `Part ${part} of ${parts.length}, the last part of ${uri}.`;
  return `${parts[part - 1]}\n\n[${where}]`;
}

export function registerPageResources(server: McpServer, pages: () => PageIndex, pageBudgetChars: number): void {
  server.registerResource(
    'page',
    new ResourceTemplate(PAGE_URI_TEMPLATE, { list: undefined }),
    {
      title: 'Documentation page',
      description: `One indexed Markdown page: svc-docs://<knowledge base>/<path>, as SearchDocs results link it. A page over ${pageBudgetChars} characters comes in parts, each ending with the URI of the next (<page URI>?part=2, …).`,
      mimeType: PAGE_MIME_TYPE,
    },
    (uri) => {
      const ref = parsePageUri(uri.href);
      const index = pages();
      const doc = ref && findPage(index, ref.source, ref.path);
      if (!doc)
        throw new ResourceNotFoundError(
          uri.href,
          `No page ${uri.href}: list pages with resources/list, or use the URI a SearchDocs result gives.`,
        );
      const text = pagePart(index, doc, ref.part ?? 1, pageBudgetChars);
      return { contents: [{ uri: uri.href, mimeType: PAGE_MIME_TYPE, text }] };
    },
  );
  // The SDK's own resources/list gathers every resource in one answer; an index can hold many
  // thousands of pages, so this one pages through them.
  server.server.setRequestHandler('resources/list', (request) => {
    try {
      return listPages(pages(), request.params?.cursor);
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
}
