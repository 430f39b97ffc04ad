import type { Express, Request, RequestHandler, Response } from 'express';
import { errorText } from '../observe/log.js';
import { type GapReport, gapReport } from '../observe/gap-report.js';
import type { QueryStore } from '../observe/query-store.js';
import { searchDocsInputSchema, servedNames } from '../mcp/tools/search-schema.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import { searchDocs, type SearchDocsSettings } from '../mcp/tools/search-docs.js';
import { unknownKnowledgeBaseMessage } from '../search/scope.js';
import type { SearchEngine } from '../search/types.js';
import { type Html, html } from './html.js';
import { markdownToHtml } from './markdown-html.js';
import { PAGE_HEADERS } from './page-style.js';
import { gapReportView, knowledgeBasesView, layout, searchForm } from './page-view.js';
import { answerView } from './results-view.js';

/**
 * The search page for people at `/`: a form (a plain GET, so it works without JavaScript) that
 * runs the same SearchDocs code as the tool, and, with no search, the knowledge bases and the
 * docs-gap report. Server-rendered; the page's searches are not recorded (the report is about
 * what assistants ask).
 */

export const PAGE_PATH = '/';

export interface SearchPageOptions {
  /** The access checks /docs has (Host, token); the Origin check is the app's. */
  guards: RequestHandler[];
  engine: SearchEngine;
  pages: () => PageIndex;
  store?: QueryStore;
  search: SearchDocsSettings;
}

const REPORT_DAYS = 7;
const REPORT_LIMIT = 10;
/** A report is recomputed when searches were recorded or the index changed, and at least this often. */
const REPORT_MAX_AGE_MS = 60_000;

/** The last week's docs-gap report, recomputed only when something it depends on changed. */
function reportSource(options: SearchPageOptions): () => Promise<GapReport | undefined> {
  let cached: { key: string; at: number; report: GapReport } | undefined;
  return async () => {
    const { store } = options;
    if (store === undefined) return undefined;
    const key = `${store.recorded}:${options.engine.summary().builtAt}`;
    if (cached?.key === key && Date.now() - cached.at < REPORT_MAX_AGE_MS) return cached.report;
    const now = new Date();
    const since = new Date(now.getTime() - REPORT_DAYS * 86_400_000);
    const pages = options.pages().documents.map((d) => `${d.kb}/${d.path}`);
    const report = gapReport(await store.read(since), { pages, limit: REPORT_LIMIT, since, now });
    cached = { key, at: Date.now(), report };
    return report;
  };
}

export function searchPageRoutes(app: Express, options: SearchPageOptions): void {
  const report = reportSource(options);
  const send = (res: Response, status: number, title: string, body: Html) =>
    res.status(status).set(PAGE_HEADERS).send(layout(title, body));

  app.get(PAGE_PATH, ...options.guards, async (req: Request, res: Response) => {
    const asked = typeof req.query.q === 'string' ? req.query.q : undefined;
    const names = servedNames(options.engine);
    const kb = typeof req.query.kb === 'string' && req.query.kb !== '' ? req.query.kb : undefined;
    const form = (term: string, problem?: string) => searchForm(term, problem, { names, chosen: kb });
    if (kb !== undefined && !names.includes(kb))
      return send(res, 400, 'svc-docs', form(asked?.slice(0, 1000) ?? '', unknownKnowledgeBaseMessage(kb, names)));
    if (asked === undefined || asked.trim() === '') {
      const home = html`${form('')}${knowledgeBasesView(options.engine.summary(), options.pages())}${gapReportView(await report())}`;
      return send(res, 200, 'svc-docs', home);
    }
    const input = searchDocsInputSchema.safeParse({ searchTerm: asked });
    if (!input.success) return send(res, 400, 'svc-docs', form(asked.slice(0, 1000), input.error.issues[0]?.message));
    const term = input.data.searchTerm;
    try {
      const [answer, render] = await Promise.all([
        searchDocs(options.engine, term, options.search, { knowledgeBase: kb }),
        markdownToHtml(),
      ]);
      const body = html`${form(term)}${answerView(answer, options.pages(), render)}`;
      return send(res, 200, `${term} · svc-docs`, body);
    } catch (error) {
      const problem = `The search failed: ${errorText(error)}. Try again; if it keeps failing, check the server log.`;
      return send(res, 503, 'svc-docs', form(term, problem));
    }
  });
}
