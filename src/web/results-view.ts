import type { SearchDocsOutput } from '../mcp/render/render.js';
import type { PageIndex } from '../mcp/tools/pages.js';
import type { SearchDocsAnswer } from '../mcp/tools/search-docs.js';
import { type Html, html } from './html.js';
import type { MarkdownToHtml } from './markdown-html.js';

/**
 * A search's answer for people: exactly the text the model gets, then each result's page rendered
 * readable, the sections the model got shown in page order with the best match highlighted, and
 * the sections it did not get named (folded) where they sit.
 */

type ShownResult = SearchDocsOutput['results'][number];
type ShownSection = ShownResult['sections'][number];

function stars(count: number): string {
  return '★'.repeat(count);
}

/** A section's heading line (its text's first Markdown heading), for the list of left-out sections. */
function headingOf(text: string | undefined): string {
  const heading = /^#{1,6}[ \t]+(.+)$/m.exec(text ?? '')?.[1]?.trim();
  if (heading !== undefined) return heading;
  const start = (text ?? '').trim().split('\n')[0] ?? '';
  return start.length > 80 ? `${start.slice(0, 80)}…` : start || '(no heading)';
}

/** The headings of a page's sections: those the answer names as not shown, else read off the index's text. */
function pageHeadings(pages: PageIndex, result: ShownResult): (position: number) => string {
  const doc = pages.documents.find((d) => d.kb === result.source && d.path === result.path);
  const named = new Map(result.notShown.map((s) => [s.position, s.heading]));
  return (position) =>
    named.get(position) ||
    headingOf(
      doc === undefined
        ? undefined
        : pages.sections.slice(doc.firstSection + position, doc.firstSection + position + 1)[0]?.text,
    );
}

function leftOut(from: number, to: number, headingAt: (position: number) => string): Html {
  const count = to - from + 1;
  const which = count === 1 ? `Section ${from + 1}` : `Sections ${from + 1}–${to + 1}`;
  const items = Array.from({ length: count }, (_, i) => html`<li>${from + i + 1}. ${headingAt(from + i)}</li>`);
  return html`<details class="left-out"><summary>${which} not sent to the model</summary><ul>${items}</ul></details>`;
}

function sectionView(section: ShownSection, render: MarkdownToHtml): Html {
  const tag = section.isBest ? `Best match · section ${section.position + 1}` : `Section ${section.position + 1}`;
  return html`<section class="doc-section${section.isBest ? ' best' : ''}"><p class="section-tag">${tag}</p>${render(section.text)}</section>`;
}

function resultView(result: ShownResult, pages: PageIndex, render: MarkdownToHtml): Html {
  const headingAt = pageHeadings(pages, result);
  const shown = [...result.sections].sort((a, b) => a.position - b.position);
  const parts: Html[] = [];
  let next = 0;
  for (const section of shown) {
    if (section.position > next) parts.push(leftOut(next, section.position - 1, headingAt));
    parts.push(sectionView(section, render));
    next = section.position + 1;
  }
  if (next < result.pageSections) parts.push(leftOut(next, result.pageSections - 1, headingAt));
  const label = html`<span class="label">${stars(result.relevance.stars)} ${result.relevance.label}</span>`;
  return html`<article class="result" data-rank="${result.rank}">
<h3>${result.rank}. ${result.title || result.path}</h3>
<p class="meta">${result.source} / ${result.path} · ${label} · ${shown.length} of ${result.pageSections} sections sent</p>
${parts}
</article>`;
}

export function answerView(answer: SearchDocsAnswer, pages: PageIndex, render: MarkdownToHtml): Html {
  const { structured, outcome } = answer;
  const uncovered = outcome.notCovered
    ? html`<p class="not-covered">The docs do not seem to cover this question: asked over MCP, it would be listed in the docs-gap report.</p>`
    : '';
  const omitted =
    structured.omittedResults > 0
      ? html`<p class="note">${structured.omittedResults} weaker results were left out of the answer.</p>`
      : '';
  // The results the model's text holds, not those found: weaker ones left out are said below.
  const shown = structured.results.length;
  return html`<p class="note">${shown} result${shown === 1 ? '' : 's'} for “${outcome.term}”, ${outcome.chars} characters sent to the model.</p>
${uncovered}
<div class="answer">
<section class="readable" aria-label="The pages, readable"><h2>The pages, readable</h2>
${structured.results.map((r) => resultView(r, pages, render))}
${omitted}
</section>
<section class="model" aria-label="What the model gets"><h2>Exactly what the model gets</h2><pre>${answer.text}</pre></section>
</div>`;
}
