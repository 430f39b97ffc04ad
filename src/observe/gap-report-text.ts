import type { GapReport, QuestionGroup } from './gap-report.js';
import { terminalText } from './terminal-text.js';

/**
 * The docs-gap report as text for a terminal (`svc-docs report`): the uncovered questions first.
 * Every field a client or a corpus chose (terms, client names, pages) is shown through
 * terminalText, so none can send the terminal an escape sequence or a line of its own.
 */

function day(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function quoted(term: string): string {
  return terminalText(JSON.stringify(term.replace(/\s+/g, ' ')));
}

function confidence(value: number | undefined): string {
  return value === undefined ? '   -' : value.toFixed(2);
}

function groupLine(group: QuestionGroup, showConfidence: boolean): string {
  const count = `${group.count}×`.padStart(5);
  const others =
    group.otherWordings > 0 ? ` (+${group.otherWordings} other wording${group.otherWordings === 1 ? '' : 's'})` : '';
  const best = showConfidence ? `  best ${confidence(group.meanConfidence)}` : '';
  return `${count}  ${quoted(group.example)}${others}${best}  last ${day(group.last)}`;
}

function section(title: string, lines: string[], empty: string): string[] {
  return ['', title, ...(lines.length > 0 ? lines : [`  ${empty}`])];
}

export function gapReportText(report: GapReport): string {
  const window = report.since === undefined ? 'all searches kept' : `since ${day(report.since)}`;
  const clients = report.clients.length > 0 ? `; clients: ${report.clients.map(terminalText).join(', ')}` : '';
  const lines = [
    `Docs-gap report, ${window} (until ${day(report.until)}): ${report.searches} searches, ${report.notCoveredSearches} not covered${clients}`,
    ...section(
      'Questions the docs did not cover (most asked first):',
      report.notCovered.map((g) => groupLine(g, false)),
      'none',
    ),
    ...section(
      'Weakest answers (best result below "Very relevant", lowest first):',
      report.weakest.map(
        (w) =>
          `  ${confidence(w.bestConfidence)}  ${quoted(w.term)}  → ${terminalText(w.pages[0] ?? '(no page shown)')}`,
      ),
      'none',
    ),
    ...section(
      'Most asked:',
      report.mostAsked.map((g) => groupLine(g, true)),
      'none',
    ),
  ];
  const never = report.neverReturned;
  if (never === undefined) lines.push('', 'Pages never returned: unknown (the index could not be read)');
  else
    lines.push(
      ...section(
        `Pages never returned: ${never.total} of ${never.of}${never.total > never.pages.length ? ` (first ${never.pages.length})` : ''}:`,
        never.pages.map((p) => `  ${terminalText(p)}`),
        'none: every page was in some answer',
      ),
    );
  lines.push(
    ...section(
      'Slowest searches:',
      report.slowest.map((s) => `  ${s.ms.toFixed(1).padStart(8)} ms  ${quoted(s.term)}  ${day(s.time)}`),
      'none',
    ),
  );
  return lines.join('\n');
}
