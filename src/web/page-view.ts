import type { QuestionGroup } from '../observe/gap-report.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import type { IndexSummary } from '../search/types.js';
import { type Html, html, trustedHtml, when } from './html.js';
import { PAGE_CSS } from './page-style.js';
import type { ReportState } from './report-source.js';

/** The page around an answer: the layout, the search form, the knowledge bases and the docs-gap report. */

export function layout(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${trustedHtml(PAGE_CSS)}</style>
</head>
<body><main>${body}</main></body>
</html>
`.text;
}

/**
 * The search box's example: a main topic of the docs served (their profile's first), never a
 * fixed one: the bundled docs' "webhook signature verification" showed over every corpus.
 */
export function placeholderOf(summary: Pick<IndexSummary, 'profiles'>): string {
  const topic = summary.profiles.find((p) => p.topics.length > 0)?.topics[0];
  return topic === undefined ? 'Search the docs' : `e.g. ${topic}`;
}

/** The search form; with knowledge bases, a select to search one of them (`kb`), all by default. */
export function searchForm(
  term: string,
  placeholder: string,
  problem?: string,
  scope?: { names: readonly string[]; chosen?: string },
): Html {
  return html`<header>
<h1><a href="/">svc-docs</a></h1>
<p>Search the documentation the AI assistants search, and see exactly what they get back.</p>
</header>
<form class="search" method="get" action="/" role="search">
<input type="search" name="q" value="${term}" maxlength="1000" placeholder="${placeholder}" aria-label="Search the docs" autofocus>
${scope === undefined || scope.names.length < 2 ? '' : scopeSelect(scope.names, scope.chosen)}
<button type="submit">Search</button>
</form>
${problem === undefined ? '' : html`<p class="not-covered" role="alert">${problem}</p>`}`;
}

function scopeSelect(names: readonly string[], chosen: string | undefined): Html {
  const options = names.map(
    (n) => html`<option value="${n}"${n === chosen ? trustedHtml(' selected') : ''}>${n}</option>`,
  );
  return html`<select name="kb" aria-label="Knowledge base"><option value="">All knowledge bases</option>${options}</select>`;
}

export function knowledgeBasesView(summary: IndexSummary, pages: PageIndex): Html {
  const byKb = Map.groupBy(pages.documents, (doc) => doc.kb);
  const rows = summary.knowledgeBases.map((kb) => {
    const docs = byKb.get(kb);
    const sections = docs?.reduce((sum, doc) => sum + doc.sectionCount, 0);
    return html`<tr><td>${kb}</td><td class="n">${docs?.length ?? '-'}</td><td class="n">${sections ?? '-'}</td></tr>`;
  });
  return html`<section aria-label="Knowledge bases"><h2>Knowledge bases</h2>
<div class="table-wrap"><table><thead><tr><th>Knowledge base</th><th class="n">Pages</th><th class="n">Sections</th></tr></thead><tbody>${rows}</tbody></table></div>
<p class="note">${summary.documents} pages, ${summary.sections} sections; index built ${when(summary.builtAt)} with ${summary.modelId}.</p>
</section>`;
}

function groupRows(groups: readonly QuestionGroup[], withConfidence: boolean): Html[] {
  return groups.map(
    (g) =>
      html`<tr><td class="n">${g.count}×</td><td>${g.example}${g.otherWordings > 0 ? ` (+${g.otherWordings} other wordings)` : ''}</td>${withConfidence ? html`<td class="n">${g.meanConfidence?.toFixed(2) ?? '-'}</td>` : ''}<td>${when(g.last)}</td></tr>`,
  );
}

function table(label: string, head: string[], rows: Html[], empty: string): Html {
  if (rows.length === 0) return html`<h3>${label}</h3><p class="note">${empty}</p>`;
  return html`<h3>${label}</h3><div class="table-wrap"><table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function gapReportView(state: ReportState): Html {
  const heading = html`<h2>Docs-gap report</h2>`;
  if ('off' in state)
    return html`<section aria-label="Docs-gap report">${heading}<p class="note">Searches are not recorded on this server (SVC_DOCS_QUERY_STORE=0), so there is no report.</p></section>`;
  if ('failed' in state)
    return html`<section aria-label="Docs-gap report">${heading}<p class="note">The report could not be built (${state.failed}). <code>svc-docs report</code> prints it.</p></section>`;
  const { report } = state;
  const never = report.neverReturned;
  return html`<section aria-label="Docs-gap report">${heading}
<p class="note">${report.searches} searches over MCP since ${report.since === undefined ? 'the start' : when(report.since)}, ${report.notCoveredSearches} not covered. <code>svc-docs report</code> prints the same.</p>
${table('Questions the docs did not cover', ['Asked', 'Question', 'Last'], groupRows(report.notCovered, false), 'None.')}
${table(
  'Weakest answers',
  ['Best', 'Question', 'Top page'],
  report.weakest.map(
    (w) =>
      html`<tr><td class="n">${w.bestConfidence.toFixed(2)}</td><td>${w.term}</td><td>${w.pages[0] ?? '-'}</td></tr>`,
  ),
  'None.',
)}
${table('Most asked', ['Asked', 'Question', 'Best', 'Last'], groupRows(report.mostAsked, true), 'No searches yet.')}
${
  never === undefined
    ? ''
    : table(
        `Pages never returned (${never.total} of ${never.of})`,
        ['Page'],
        never.pages.map((p) => html`<tr><td>${p}</td></tr>`),
        'None: every page was in some answer.',
      )
}
${table(
  'Slowest searches',
  ['ms', 'Question', 'When'],
  report.slowest.map(
    (s) => html`<tr><td class="n">${s.ms.toFixed(1)}</td><td>${s.term}</td><td>${when(s.time)}</td></tr>`,
  ),
  'None.',
)}
</section>`;
}
