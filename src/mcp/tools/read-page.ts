import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { cutMarkdown } from '../render/cut-markdown.js';
import { parsePageUri } from './page-uri.js';
import { findPage, pageSections, type PageIndex } from './pages.js';

/**
 * The optional second tool, ReadPage: a page, or some of its sections, for clients whose models
 * can call tools but cannot read resources. Off by default (the SearchDocs contract has one tool); the
 * readPageTool setting turns it on.
 */

const READ_PAGE_TOOL_NAME = 'ReadPage';
/** Sections one call returns at most: the size of a SearchDocs window. */
const MAX_SECTIONS_PER_READ = 31;

const readPageInputSchema = z.strictObject({
  page: z
    .string()
    .min(1)
    .max(2048)
    .describe('The page URI a SearchDocs result gives (svc-docs://<knowledge base>/<path>).'),
  // Numbered from 1, as SearchDocs results number sections ("section 9", "sections 8-10"): a
  // model that read "section 11" there asks for fromSection 11 and must get that section.
  fromSection: z
    .number()
    .int()
    .min(1)
    .default(1)
    .describe(
      'Number of the first section to return, from 1, as SearchDocs text numbers them ("section 9"; a structured result\'s position + 1).',
    ),
  sectionCount: z
    .number()
    .int()
    .min(1)
    .max(MAX_SECTIONS_PER_READ)
    .default(MAX_SECTIONS_PER_READ)
    .describe('How many sections to return.'),
});

function textResult(text: string, isError = false) {
  return { content: [{ type: 'text' as const, text }], ...(isError ? { isError: true } : {}) };
}

/**
 * The text ReadPage returns: a header naming what is shown (sections numbered from 1, `first`
 * being the first one's number), then the sections' Markdown, cut to the budget.
 */
function renderSections(
  uri: string,
  title: string,
  total: number,
  first: number,
  texts: string[],
  budgetChars: number,
): string {
  const last = first + texts.length - 1;
  const shown = first === last ? `section ${first} of ${total}` : `sections ${first}-${last} of ${total}`;
  const next = last < total ? ` Next: fromSection ${last + 1}.` : '';
  const body = texts.join('\n\n');
  const { text: head, omitted } = cutMarkdown(body, budgetChars);
  const cut = omitted === 0 ? head : `${head}\n\n[cut to the response budget: read fewer sections]`;
  return `Page: ${title}\nURI: ${uri}\nShowing ${shown}.${next}\n\n${cut}`;
}

export function registerReadPageTool(server: McpServer, pages: () => PageIndex, budgetChars: number): void {
  server.registerTool(
    READ_PAGE_TOOL_NAME,
    {
      title: 'Read documentation page',
      description:
        'Read a documentation page whole, or a run of its sections, by the page URI a SearchDocs result gives. ' +
        `Returns up to ${MAX_SECTIONS_PER_READ} consecutive sections from fromSection (numbered from 1, as SearchDocs results number them); ` +
        'call again with the next fromSection for more.',
      inputSchema: readPageInputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ page, fromSection, sectionCount }) => {
      const ref = parsePageUri(page);
      const index = pages();
      const doc = ref && findPage(index, ref.source, ref.path);
      if (!doc) return textResult(`No page ${page}: pass the page URI exactly as a SearchDocs result gives it.`, true);
      // An empty Markdown file is indexed as a page with no sections.
      if (doc.sectionCount === 0) return textResult(`Page: ${doc.title}\nURI: ${page}\nThe page is empty.`);
      if (fromSection > doc.sectionCount)
        return textResult(
          `${page} has ${doc.sectionCount} section${doc.sectionCount === 1 ? '' : 's'} (1-${doc.sectionCount}); fromSection ${fromSection} is past the end.`,
          true,
        );
      const texts = pageSections(index, doc, fromSection - 1, sectionCount).map((s) => s.text);
      return textResult(renderSections(page, doc.title, doc.sectionCount, fromSection, texts, budgetChars));
    },
  );
}
