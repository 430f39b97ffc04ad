import { describe, expect, it } from 'vitest';
import { readCorpus } from './markdown-checks.js';
import { corpusRoot, repoRoot } from './paths.js';
import { extractTsSamples, typecheckSamples } from './typecheck-samples.js';

describe('TypeScript samples in the corpus', () => {
  it('extracts ts blocks with the line of their first code line', () => {
    const pages = new Map([['kb/a.md', '---\ntitle: A\n---\n\n```ts\nconst a = 1;\n```\n\n```json\n{}\n```\n']]);
    expect(extractTsSamples(pages)).toEqual([{ page: 'kb/a.md', line: 6, code: 'const a = 1;' }]);
  });

  it('reports a sample that does not compile at its page and line', () => {
    const pages = new Map([
      [
        'kb/bad.md',
        '---\ntitle: Bad\n---\n\n```ts\nconst ok = 1;\nconst n: number = "one";\nconsole.log(ok, n);\n```\n',
      ],
    ]);
    const problems = typecheckSamples(extractTsSamples(pages), { repoRoot: repoRoot() });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^kb\/bad\.md:7: TS2322 /);
  }, 60_000);

  it('reports an import the package does not export', () => {
    const pages = new Map([
      [
        'kb/import.md',
        "---\ntitle: I\n---\n\n```ts\nimport { noSuchExport } from '@svc-docs/platform';\nconsole.log(noSuchExport);\n```\n",
      ],
    ]);
    const problems = typecheckSamples(extractTsSamples(pages), { repoRoot: repoRoot() });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^kb\/import\.md:6: TS\d+ /);
  }, 60_000);

  it('compile against @svc-docs/platform', () => {
    const samples = extractTsSamples(readCorpus(corpusRoot()));
    expect(samples.length).toBeGreaterThan(5);
    expect(typecheckSamples(samples, { repoRoot: repoRoot() })).toEqual([]);
  }, 120_000);

  it('import the platform by its package name: the server no longer exports it as svc-docs/platform', () => {
    const pages = new Map([
      [
        'kb/old.md',
        "---\ntitle: O\n---\n\n```ts\nimport { TokenManager } from 'svc-docs/platform';\nconsole.log(TokenManager);\n```\n",
      ],
    ]);
    expect(typecheckSamples(extractTsSamples(pages), { repoRoot: repoRoot() })[0]).toMatch(/^kb\/old\.md:6: TS2307 /);
  }, 60_000);
});
