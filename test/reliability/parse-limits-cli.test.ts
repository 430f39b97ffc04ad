import { describe, expect, it } from 'vitest';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { linesOf, runCli } from './helpers.js';

/**
 * The parse time limit and the file size limit as settings of `svc-docs index`: a page over each
 * named in one line, a value that is no positive number refused in one. (The bounds themselves, on
 * every kind of hostile Markdown: hostile-markdown.test.ts.)
 */

const GOOD = {
  'kb/refunds.md': '# Refunds\n\nA refund returns money to the customer.\n',
  'kb/webhooks.md': '# Webhooks\n\nVerify the signature of every webhook event.\n',
};

describe('svc-docs index: parse limits from the environment', () => {
  it('svc-docs index takes its limits from SVC_DOCS_PARSE_TIMEOUT_SECONDS and SVC_DOCS_MAX_FILE_BYTES', {
    timeout: 300_000,
  }, async () => {
    const corpus = writeCorpus({
      ...GOOD,
      'kb/brackets.md': '['.repeat(50_000) + ']'.repeat(50_000),
      'kb/big.md': '# Big\n\n' + 'x '.repeat(150_000),
    });
    const run = await runCli(
      ['index', '--corpus', corpus, '--out', tempDir('cli-index'), '--vector-cache', tempDir('cli-vectors')],
      {
        env: { SVC_DOCS_PARSE_TIMEOUT_SECONDS: '1', SVC_DOCS_MAX_FILE_BYTES: '200000' },
        timeoutMs: 240_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = linesOf(run.stderr);
    expect(lines.filter((l) => l.includes('brackets.md'))).toEqual([
      'warning: kb/brackets.md could not be parsed as Markdown (parsing it took over 1 s of CPU time, SVC_DOCS_PARSE_TIMEOUT_SECONDS); indexed as plain text',
    ]);
    expect(lines.filter((l) => l.includes('big.md'))).toEqual([
      'skipped kb/big.md: 300,007 bytes is over the limit of 200,000 bytes per file (SVC_DOCS_MAX_FILE_BYTES)',
    ]);
    expect(run.stdout).toMatch(/^indexed 3 documents/);
  });

  it('svc-docs index refuses a limit that is not a positive number, in one line', async () => {
    const run = await runCli(['index', '--corpus', writeCorpus(GOOD), '--out', tempDir('cli-index')], {
      env: { SVC_DOCS_PARSE_TIMEOUT_SECONDS: 'soon' },
    });
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      'svc-docs: SVC_DOCS_PARSE_TIMEOUT_SECONDS must be a positive number, got "soon"',
    ]);
  });
});
