import { describe, expect, it } from 'vitest';
import { bundledIndex, tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { afterAll } from 'vitest';
import { cliEnv, finished, killChildren, recordedModules, searchPaths, spawnCli, startServe } from '../helpers/cli.js';

afterAll(killChildren);

/** Each command loads only what it runs: the modules the CLI's main thread loads, recorded. */

describe('svc-docs: each command loads only what it runs', () => {
  /** The server's modules: about 0.13 s to load, of no use to a build or a client config. */
  const SERVER_MODULES =
    /\/node_modules\/(express|@modelcontextprotocol)\/|\/src\/serve\.ts$|\/src\/search\/engine\.ts$/;
  /** The Markdown parser's: about 0.1 s, of no use to a server whose index is current. */
  const PARSER_MODULES = /\/node_modules\/(remark-parse|remark-gfm|micromark)\/|\/indexer\/chunk\.ts$/;

  it('index, config and report run without loading the server (express, the MCP SDK, the search engine)', async () => {
    const corpus = writeCorpus({ 'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const vectors = tempDir('cli-modules-vectors');
    const [index, config, report] = await Promise.all(
      [
        ['index', '--corpus', corpus, '--out', tempDir('cli-modules-out'), '--vector-cache', vectors],
        ['config', '--url', 'http://127.0.0.1:8080/docs'],
        ['report', '--index', bundledIndex()],
      ].map(async (args) => {
        const modules = recordedModules();
        const result = await finished(spawnCli(args, cliEnv(modules.env), modules.entry));
        expect(result.code, result.stderr).toBe(0);
        return modules.loaded();
      }),
    );
    // What each command does run is recorded: the list is the process's, not empty.
    expect(index!.some((url) => url.endsWith('/indexer/build.ts'))).toBe(true);
    expect(config!.some((url) => url.endsWith('/src/cli/client-config.ts'))).toBe(true);
    expect(report!.some((url) => url.endsWith('/src/observe/gap-report.ts'))).toBe(true);
    for (const loaded of [index!, config!, report!])
      expect(loaded.filter((url) => SERVER_MODULES.test(url))).toEqual([]);
  });

  it('index loads a format converter only for a corpus that has files of its format', async () => {
    /** The HTML page path (hast-util-select), Asciidoctor.js and the other converters: about 0.1 s and 0.4 s. */
    const CONVERTERS =
      /\/indexer\/formats\/(html-page|text|notebook|asciidoc)\.ts$|\/node_modules\/(@asciidoctor|hast-util-select)\//;
    const indexed = async (files: Record<string, string>) => {
      const modules = recordedModules();
      const args = ['index', '--corpus', writeCorpus(files), '--out', tempDir('cli-formats-out')];
      const env = cliEnv({ ...modules.env, SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-formats-vectors') });
      const result = await finished(spawnCli(args, env, modules.entry));
      expect(result.code, result.stderr).toBe(0);
      return modules.loaded().filter((url) => CONVERTERS.test(url));
    };
    const markdownLoaded = await indexed({ 'kb/quokka.md': '# Quokkas\n\nThe enclosure opens at nine.\n' });
    expect(markdownLoaded).toEqual([]);
    const html = await indexed({ 'kb/quokka.html': '<h1>Quokkas</h1><p>The enclosure opens at nine.</p>' });
    expect(html.some((url) => url.endsWith('/indexer/formats/html-page.ts'))).toBe(true);
    expect(html.some((url) => /@asciidoctor|notebook/.test(url))).toBe(false);
  });

  it('serve checks that its index is current without loading the Markdown parser', async () => {
    const corpus = writeCorpus({ 'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n' });
    const args = ['--port', '0', '--corpus', corpus, '--index', tempDir('cli-modules-index')];
    const env = { SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-modules-vectors') };
    // The first start builds the index (the parser loads), the second finds it current.
    for (const built of [true, false]) {
      const modules = recordedModules();
      const server = await startServe(args, cliEnv({ ...env, ...modules.env }), modules.entry);
      expect((await searchPaths(server.url, 'quokka enclosure'))[0]).toBe('kb/quokka.md');
      const exit = await server.stop();
      expect(exit.code, exit.stderr).toBe(0);
      const loaded = modules.loaded();
      expect(loaded.some((url) => url.endsWith('/indexer/reindex/index-status.ts'))).toBe(true);
      expect(loaded.some((url) => PARSER_MODULES.test(url))).toBe(built);
    }
  });
});
