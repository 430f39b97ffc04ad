import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GapReport } from '../../src/observe/gap-report.js';
import { fixtureIndex } from '../helpers/index-fixture.js';
import { connectClient, connectV2, MODERN_VERSION } from '../helpers/mcp-client.js';
import { SAMPLE_CORPUS } from '../helpers/sample-corpus.js';
import { startServe } from '../helpers/cli.js';
import { cliEnv, runCli } from '../reliability/helpers.js';

/**
 * The docs-gap report from the outside: a real `svc-docs serve` answers a scripted session of
 * on-topic and off-topic searches from both protocol eras, is stopped, and `svc-docs report` then
 * lists the off-topic questions first, as not covered, most asked first. `svc-docs search` records
 * nothing.
 */

const ON_TOPIC = [
  'verify the webhook signature',
  'how long is the OAuth access token valid',
  'svc-account-id header custom trigger',
];
/** Asked three times in two wordings, then once: the report groups the first by its words. */
const OFF_TOPIC = ['banana bread recipe', 'quantum chromodynamics lattice'];

describe('svc-docs report', () => {
  it('lists the questions the docs did not cover first, after a session of MCP searches', {
    timeout: 240_000,
  }, async () => {
    const index = await fixtureIndex(SAMPLE_CORPUS);
    const search = await runCli(['search', 'banana', 'bread', '--index', index]);
    expect(search.code, search.stderr).toBe(0);
    expect(existsSync(join(index, 'queries.jsonl'))).toBe(false);

    const server = await startServe(['--no-build', '--port', '0', '--index', index], cliEnv());
    let code: number | null = null;
    try {
      const url = server.url;
      const legacy = await connectClient(url);
      const modern = await connectV2(url, { pin: MODERN_VERSION });
      const ask = (client: typeof legacy.client | typeof modern.client, searchTerm: string) =>
        client.callTool({ name: 'SearchDocs', arguments: { searchTerm } });
      for (const term of ON_TOPIC) await ask(legacy.client, term);
      await ask(legacy.client, OFF_TOPIC[0]!);
      await ask(modern.client, 'recipe for banana bread');
      await ask(modern.client, OFF_TOPIC[1]!);
      await ask(modern.client, ON_TOPIC[0]!);
      await ask(legacy.client, 'Banana bread recipes');
      await legacy.close();
      await modern.close();
    } finally {
      ({ code } = await server.stop());
    }
    expect(code).toBe(0);

    const text = await runCli(['report', '--index', index]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    // First, which docs' searches these are (src/cli/reads-line.ts).
    expect(lines[0]).toBe(
      `Reading guide, platform (5 pages) from ${index}: as named (--corpus, --index or their SVC_DOCS_* variables)`,
    );
    expect(lines[1]).toMatch(
      /^Docs-gap report, since .*: 8 searches, 4 not covered; clients: svc-docs-test, svc-docs-test-v2$/,
    );
    const heading = lines.indexOf('Questions the docs did not cover (most asked first):');
    expect(heading).toBe(3);
    const uncovered = lines.slice(heading + 1, lines.indexOf('', heading));
    expect(uncovered).toEqual([
      expect.stringMatching(/^ {3}3× {2}"Banana bread recipes" \(\+2 other wordings\) {2}last /),
      expect.stringMatching(/^ {3}1× {2}"quantum chromodynamics lattice" {2}last /),
    ]);

    const json = await runCli(['report', '--index', index, '--json', '--since', 'all']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as GapReport;
    expect(report.notCovered.map((g) => g.count)).toEqual([3, 1]);
    expect(report.mostAsked[0]).toMatchObject({ count: 3, notCovered: 3 });
    // The on-topic questions were answered: none is in the uncovered list.
    const uncoveredTerms = report.notCovered.map((g) => g.example).join('\n');
    for (const term of ON_TOPIC) expect(uncoveredTerms).not.toContain(term);
    expect(report.neverReturned?.of).toBe(5);
    expect(report.slowest).toHaveLength(8);
  });

  it('says what it expects of --since', async () => {
    const run = await runCli(['report', '--since', 'last week']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/expected an age such as 30m, 12h, 7d or 2w, or all/);
  });
});
