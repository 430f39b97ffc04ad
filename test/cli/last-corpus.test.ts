import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCorpusDir, defaultIndexDir } from '../../src/settings/defaults.js';
import { cliEnv, freshCache, killChildren, linesOf, runCli, serveUntilReady } from '../helpers/cli-run.js';

afterAll(killChildren);
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';

/**
 * One notion of "the docs this checkout serves": after `serve --corpus X` or `index --corpus X`,
 * `search`, `report` and `status` read X with no flag, and each says in its first line which
 * knowledge bases it read from which index folder, and why. A plain `search` after serving one's
 * own docs used to answer from the bundled docs and say nothing about it.
 */

const ZOO = {
  'zoo/quokka.md': '# Quokkas\n\n## Opening hours\n\nThe quokka enclosure opens at nine and closes at five.\n',
  'zoo/tickets.md': '# Tickets\n\nBuy tickets at the gate or online.\n',
};

/** The first line of each reading command, run with no corpus or index named. */
async function firstLines(env: NodeJS.ProcessEnv): Promise<Record<'search' | 'report' | 'status', string>> {
  const [search, report, status] = await Promise.all([
    runCli(['search', 'quokka', 'enclosure'], env),
    runCli(['report', '--since', 'all'], env),
    runCli(['status'], env),
  ]);
  for (const run of [search, report, status]) expect(run.code, run.stderr).toBe(0);
  expect(search.stdout).toContain('Path: quokka.md');
  return {
    search: linesOf(search.stdout)[0]!,
    report: linesOf(report.stdout)[0]!,
    status: linesOf(status.stdout)[0]!,
  };
}

function expectReadsZoo(lines: Record<string, string>, corpus: string, index: string): void {
  for (const [command, line] of Object.entries(lines)) {
    expect(line, command).toBe(
      `Reading zoo (2 pages) from ${index}: the docs last served or indexed here (${corpus}); --corpus or --index reads others`,
    );
    expect(line, command).not.toContain('svc-platform');
  }
}

describe('search, report and status read the docs last served or indexed here', () => {
  it('after serve --corpus X, each reads X with no flag and names it in its first line', async () => {
    const cache = freshCache();
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('last-vectors') }, cache);
    const corpus = writeCorpus(ZOO);
    const served = await serveUntilReady(['--corpus', corpus], env);
    expect(served.code, served.stderr).toBe(0);
    const index = defaultIndexDir([corpus], cache);
    expect(JSON.parse(readFileSync(join(cache, 'last-corpus.json'), 'utf8'))).toMatchObject({
      corpus: [corpus],
      index,
      command: 'serve',
    });
    expectReadsZoo(await firstLines(env), corpus, index);
  });

  it('after index --corpus X --out Y, each reads Y with no flag', async () => {
    const cache = freshCache();
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('last-vectors') }, cache);
    const corpus = writeCorpus(ZOO);
    const out = join(tempDir('last-out'), 'index');
    const built = await runCli(['index', '--corpus', corpus, '--out', out], env);
    expect(built.code, built.stderr).toBe(0);
    expectReadsZoo(await firstLines(env), corpus, out);
  });

  it('a corpus or index named wins over the last one, and says it was named', async () => {
    const cache = freshCache();
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('last-vectors') }, cache);
    const built = await runCli(['index', '--corpus', writeCorpus(ZOO)], env);
    expect(built.code, built.stderr).toBe(0);
    const other = join(tempDir('last-other'), 'index');
    const named = await runCli(['status', '--index', other], env);
    expect(linesOf(named.stdout)[0]).toBe(
      `Reading ${other} (no index there yet): as named (--corpus, --index or their SVC_DOCS_* variables)`,
    );
    expect(linesOf(named.stderr)).toEqual([
      `svc-docs: no index in ${other}: run 'svc-docs index' or 'svc-docs serve' first`,
    ]);
    expect(named.code).toBe(1);
  });

  it('with nothing served or indexed here, says the bundled docs are read: never silently', async () => {
    const cache = freshCache();
    const status = await runCli(['status', '--json'], cliEnv({}, cache));
    // No index of the bundled docs in this fresh cache: status says where it looked, and why there.
    expect(JSON.parse(status.stdout)).toMatchObject({
      origin: 'default',
      corpus: [defaultCorpusDir()],
      index: defaultIndexDir([defaultCorpusDir()], cache),
    });
    const report = await runCli(['report'], cliEnv({}, cache));
    expect(linesOf(report.stdout)[0]).toBe(
      `Reading ${defaultIndexDir([defaultCorpusDir()], cache)} (no index there yet): the bundled docs: nothing was served or indexed here yet, and no --corpus or --index was given`,
    );
  });
});
