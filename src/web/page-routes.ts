import type { Express, Request, RequestHandler, Response } from 'express';
import { errorText } from '../observe/log.js';
import { searchDocsInputSchema } from '../mcp/tools/search-schema.js';
import { searchDocs, type SearchDocsSettings } from '../mcp/tools/search-docs.js';
import { unknownKnowledgeBaseMessage } from '../search/scope.js';
import { type Html, html } from './html.js';
import { clientKeyOf } from '../mcp/http/fair-share.js';
import { RenderThread } from './render-thread.js';
import { PAGE_HEADERS } from './page-style.js';
import { gapReportView, knowledgeBasesView, layout, placeholderOf, searchForm } from './page-view.js';
import { type ReportSourceOptions, reportSource } from './report-source.js';
import { answerView } from './results-view.js';

/**
 * The search page for people at `/`: a form (a plain GET, so it works without JavaScript) that
 * runs the same SearchDocs code as the tool, and, with no search, the knowledge bases and the
 * docs-gap report. Server-rendered; the page's searches are not recorded (the report is about
 * what assistants ask).
 */

export const PAGE_PATH = '/';

export interface SearchPageOptions extends Pick<ReportSourceOptions, 'engine' | 'pages' | 'store'> {
  /** The access checks /docs has (Host, token) and its per-client shares; the Origin check is the app's. */
  guards: RequestHandler[];
  search: SearchDocsSettings;
}

export function searchPageRoutes(app: Express, options: SearchPageOptions): void {
  const report = reportSource(options);
  const renderer = new RenderThread();
  const send = (res: Response, status: number, title: string, body: Html) =>
    res.status(status).set(PAGE_HEADERS).send(layout(title, body));

  app.get(PAGE_PATH, ...options.guards, async (req: Request, res: Response) => {
    const asked = typeof req.query.q === 'string' ? req.query.q : undefined;
    const summary = options.engine.summary();
    const names = summary.knowledgeBases;
    const kb = typeof req.query.kb === 'string' && req.query.kb !== '' ? req.query.kb : undefined;
    const form = (term: string, problem?: string) =>
      searchForm(term, placeholderOf(summary), problem, { names, chosen: kb });
    if (kb !== undefined && !names.includes(kb))
      return send(res, 400, 'svc-docs', form(asked?.slice(0, 1000) ?? '', unknownKnowledgeBaseMessage(kb, names)));
    if (asked === undefined || asked.trim() === '') {
      const home = html`${form('')}${knowledgeBasesView(summary, options.pages())}${gapReportView(await report())}`;
      return send(res, 200, 'svc-docs', home);
    }
    const input = searchDocsInputSchema.safeParse({ searchTerm: asked });
    if (!input.success) return send(res, 400, 'svc-docs', form(asked.slice(0, 1000), input.error.issues[0]?.message));
    const term = input.data.searchTerm;
    try {
      const client = clientKeyOf(res);
      const answer = await searchDocs(options.engine, term, options.search, { client, knowledgeBase: kb });
      const texts = answer.structured.results.flatMap((r) => r.sections.map((s) => s.text));
      const rendered = await renderer.render(texts, client);
      const byText = new Map(texts.map((text, i) => [text, rendered[i]!]));
      const body = html`${form(term)}${answerView(answer, options.pages(), (text) => byText.get(text)!)}`;
      return send(res, 200, `${term} · svc-docs`, body);
    } catch (error) {
      const problem = `The search failed: ${errorText(error)}. Try again; if it keeps failing, check the server log.`;
      return send(res, 503, 'svc-docs', form(term, problem));
    }
  });
}
