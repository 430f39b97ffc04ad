import { describe, expect, it } from 'vitest';
import { gapReport, questionWords } from '../../src/observe/gap-report.js';
import { gapReportText } from '../../src/observe/gap-report-text.js';
import type { QueryRecord } from '../../src/observe/query-record.js';

/** The docs-gap report as a pure function of recorded searches and the index's pages. */

let clock = Date.parse('2026-11-20T10:00:00Z');
function searched(term: string, fields: Partial<QueryRecord> = {}): QueryRecord {
  clock += 60_000;
  const notCovered = fields.notCovered ?? false;
  return {
    time: new Date(clock).toISOString(),
    term,
    results: notCovered ? 0 : 5,
    ...(notCovered ? {} : { bestConfidence: 0.97 }),
    notCovered,
    chars: notCovered ? 200 : 9000,
    pages: notCovered ? [] : ['kb/webhooks.md'],
    ms: 5,
    client: 'claude-code',
    ...fields,
  };
}

const off = (term: string) => searched(term, { notCovered: true });
const now = new Date('2026-11-27T00:00:00Z');

describe('the docs-gap report', () => {
  it('groups questions by their words: stems, stop words and order do not matter', () => {
    expect(questionWords('How do I rotate webhook signing secrets?')).toBe(
      questionWords('rotating the webhook signing secret'),
    );
    expect(questionWords('kubernetes pod eviction')).toBe(questionWords('pod eviction kubernetes'));
    expect(questionWords('kubernetes pod eviction')).not.toBe(questionWords('kubernetes pod scheduling'));
    expect(questionWords('the')).toBe('the');
  });

  it('lists the uncovered questions most asked first, with their wordings, and keeps covered ones out', () => {
    const records = [
      off('terraform state locking'),
      off('kubernetes pod eviction policy'),
      searched('webhook signature'),
      off('pod eviction policy kubernetes'),
      off('Kubernetes pod eviction policies'),
      off('terraform state locking'),
    ];
    const report = gapReport(records, { limit: 10, now, pages: ['kb/webhooks.md', 'kb/limits.md'] });
    expect(report.searches).toBe(6);
    expect(report.notCoveredSearches).toBe(5);
    expect(report.notCovered.map((g) => [g.count, g.example, g.otherWordings])).toEqual([
      [3, 'Kubernetes pod eviction policies', 2],
      [2, 'terraform state locking', 0],
    ]);
    expect(report.mostAsked[0]).toMatchObject({ count: 3, notCovered: 3, meanConfidence: undefined });
    expect(report.neverReturned).toEqual({ total: 1, pages: ['kb/limits.md'], of: 2 });
  });

  it('names the weakest answers below "Very relevant", lowest first, once per question, and the slowest searches', () => {
    const records = [
      searched('webhook retries', { bestConfidence: 0.5 }),
      searched('webhook retry', { bestConfidence: 0.3, pages: ['kb/retries.md'] }),
      searched('rate limits', { bestConfidence: 0.97, ms: 80 }),
      searched('token expiry', { bestConfidence: 0.6, ms: 40 }),
      off('banana bread'),
    ];
    const report = gapReport(records, { limit: 2, now });
    expect(report.weakest.map((w) => [w.term, w.bestConfidence, w.pages[0]])).toEqual([
      ['webhook retry', 0.3, 'kb/retries.md'],
      ['token expiry', 0.6, 'kb/webhooks.md'],
    ]);
    expect(report.slowest.map((s) => s.term)).toEqual(['rate limits', 'token expiry']);
    expect(report.neverReturned).toBeUndefined();
    expect(report.clients).toEqual(['claude-code']);
  });

  it('prints the uncovered questions first', () => {
    const text = gapReportText(
      gapReport([searched('webhook signature'), off('terraform state locking')], { limit: 10, now, pages: [] }),
    );
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^Docs-gap report, all searches kept .*: 2 searches, 1 not covered; clients: claude-code$/,
    );
    expect(lines.slice(2, 4)).toEqual([
      'Questions the docs did not cover (most asked first):',
      expect.stringMatching(/^ {3}1× {2}"terraform state locking" {2}last 2026-11-20 /),
    ]);
    expect(text.indexOf('terraform')).toBeLessThan(text.indexOf('webhook signature'));
  });

  it('escapes control characters in every field it prints: client names, terms and pages', () => {
    const hostile = '\u001b[2J\u009b31m\u202e';
    const text = gapReportText(
      gapReport([searched(`a${hostile}b`, { client: `evil\n${hostile}`, notCovered: true, pages: [] })], {
        limit: 10,
        now,
        pages: [`kb/x${hostile}.md`],
      }),
    );
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('clients: evil\\u{a}\\u{1b}[2J\\u{9b}31m\\u{202e}');
    expect(text).toContain('kb/x\\u{1b}[2J');
  });
});
