import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelledSets, loadQuerySet, type QuerySet } from '../../bench/queries.js';
import { readCorpus } from './markdown-checks.js';
import { corpusRoot, repoRoot } from './paths.js';
import { checkQuerySet } from './query-checks.js';

const options = { minQueries: 50, maxStyleShare: 0.35 };

describe('labelled query checks', () => {
  const pages = new Map([
    ['kb/a.md', '---\ntitle: A\n---\n\n## Tokens\n\nText.\n'],
    ['kb/b.md', '---\ntitle: B\n---\n\n## Webhooks\n\nText.\n'],
  ]);
  const styles = ['paraphrase', 'keyword', 'identifier', 'symptom'] as const;
  const good: QuerySet['queries'] = styles.map((style, i) => ({
    id: `q${i}`,
    style,
    query: 'tokens',
    relevant: [{ doc: i % 2 === 0 ? 'kb/a.md' : 'kb/b.md', grade: 2, headings: [i % 2 === 0 ? 'Tokens' : 'Webhooks'] }],
  }));
  const small = { minQueries: 4, maxStyleShare: 0.35 };

  it('accepts a consistent set', () => {
    expect(checkQuerySet(good, pages, small)).toEqual([]);
  });

  it('reports unknown pages, unknown headings and unanswered pages', () => {
    const bad: QuerySet['queries'] = good.map((q) => ({
      ...q,
      relevant: [{ doc: 'kb/a.md', grade: 2, headings: ['Tokens'] }],
    }));
    bad[0] = { ...bad[0]!, relevant: [{ doc: 'kb/missing.md', grade: 2 }] };
    bad[1] = { ...bad[1]!, relevant: [{ doc: 'kb/a.md', grade: 2, headings: ['No such heading'] }] };
    const problems = checkQuerySet(bad, pages, small);
    expect(problems).toContain('q0: kb/missing.md is not a page of the corpus');
    expect(problems).toContain('q1: kb/a.md has no heading "No such heading"');
    expect(problems).toContain('kb/b.md: no query has it as the answering page (grade 2)');
  });

  it('reports too few queries, duplicate ids and lopsided styles', () => {
    const lopsided = good.map((q) => ({ ...q, id: 'same', style: 'keyword' as const }));
    const problems = checkQuerySet(lopsided, pages, { ...small, minQueries: 50 });
    expect(problems).toContain('only 4 queries; at least 50 are needed');
    expect(problems).toContain('same: duplicate id');
    expect(problems.some((p) => p.startsWith('style keyword has 100%'))).toBe(true);
  });
});

describe('bench/queries/svc.json', () => {
  it('labels the bundled corpus consistently', () => {
    const set = loadQuerySet(join(repoRoot(), 'bench', 'queries', 'svc.json'));
    expect(set.corpusDir).toBe(corpusRoot());
    expect(checkQuerySet(set.queries, readCorpus(set.corpusDir), options)).toEqual([]);
  });
});

describe('labelledSets', () => {
  it('reads an absolute corpus path as it is, and skips a set whose corpus folder is missing with one line', () => {
    const root = mkdtempSync(join(tmpdir(), 'sets-'));
    try {
      const corpus = join(root, 'html');
      mkdirSync(corpus);
      writeFileSync(join(corpus, 'index.html'), '<html><head><title>Docs</title></head><body><p>Hi</p></body></html>');
      mkdirSync(join(root, 'bench', 'queries'), { recursive: true });
      const write = (name: string, dir: string) =>
        writeFileSync(join(root, 'bench', 'queries', `${name}.json`), JSON.stringify({ corpus: dir, queries: [] }));
      write('postgresql', corpus);
      write('argocd', join(root, 'not-installed'));
      const lines: string[] = [];
      const sets = labelledSets(root, (line) => lines.push(line));
      expect(sets.map((s) => [s.name, s.corpusDir])).toEqual([['postgresql', corpus]]);
      expect(lines).toEqual([`skipping the argocd set: its corpus ${join(root, 'not-installed')} is not there`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
