import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { PAGE_URI_TEMPLATE, parsePageUri } from './page-uri.js';
import { findPage, InvalidCursorError, listPages, PAGE_MIME_TYPE, pageMarkdown, type PageIndex } from './pages.js';

/**
 * Registers the indexed pages as MCP resources on `server`: one template (PAGE_URI_TEMPLATE),
 * a paginated resources/list and resources/read returning a page's Markdown. `pages` is read per
 * request, so a reloaded index is listed and read at once.
 */
export function registerPageResources(server: McpServer, pages: () => PageIndex): void {
  server.registerResource(
    'page',
    new ResourceTemplate(PAGE_URI_TEMPLATE, { list: undefined }),
    {
      title: 'Documentation page',
      description:
        'One indexed Markdown page, whole: svc-docs://<knowledge base>/<path>, as SearchDocs results link it.',
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
      return { contents: [{ uri: uri.href, mimeType: PAGE_MIME_TYPE, text: pageMarkdown(index, doc) }] };
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
