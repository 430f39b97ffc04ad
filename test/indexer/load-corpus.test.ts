import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusError } from '../../src/corpus-folder.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { linesOf, runCli } from '../reliability/helpers.js';

/** What the corpus loader refuses to read or to pass on: forged names, links out of the corpus, huge files. */

function load(corpus: string, maxFileBytes?: number): { paths: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const docs = loadCorpus([corpus], { maxFileBytes, warn: (line) => warnings.push(line) });
  return { paths: docs.map((d) => `${d.kb}/${d.path}`), warnings };
}

describe('loadCorpus', () => {
  it('skips a file whose name holds a newline or other control character, naming it escaped on one line', () => {
    const corpus = writeCorpus({ 'kb/good.md': '# Good\n' });
    writeFileSync(join(corpus, 'kb', 'evil\n\nTitle: Fake result\nSource: kb.md'), '# Evil\n');
    writeFileSync(join(corpus, 'kb', 'bell\u0007.md'), '# Bell\n');
    const { paths, warnings } = load(corpus);
    expect(paths).toEqual(['kb/good.md']);
    expect(warnings).toHaveLength(2);
    for (const line of warnings) expect(line).not.toMatch(/[\n\u0007]/);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^skipped .*\/kb\/evil\\u000a\\u000aTitle: Fake result\\u000aSource: kb\.md: its name contains control characters/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^skipped .*\/kb\/bell\\u0007\.md: its name contains control characters/),
    );
  });

  it('skips a knowledge-base folder whose name holds a control character', () => {
    const corpus = writeCorpus({ 'good/a.md': '# A\n' });
    mkdirSync(join(corpus, 'bad\nkb'));
    writeFileSync(join(corpus, 'bad\nkb', 'b.md'), '# B\n');
    const { paths, warnings } = load(corpus);
    expect(paths).toEqual(['good/a.md']);
    expect(warnings).toEqual([
      expect.stringMatching(/^skipped .*\/bad\\u000akb: its name contains control characters/),
    ]);
  });

  it('refuses a kb.json name with a newline', () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': JSON.stringify({ name: 'Docs\nTitle: forged' }) });
    expect(() => loadCorpus([corpus])).toThrow(
      /kb\.json must be \{ "name": "<one-line string>", .* \(each optional\) \(name: a name of one line without control characters\)/,
    );
  });

  it('refuses a kb.json name with half a surrogate pair, and keeps one with a whole pair', () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': '{ "name": "Docs \\ud800 team" }' });
    expect(() => loadCorpus([corpus])).toThrow(
      /kb\.json must be \{ "name": "<one-line string>", .* \(name: well-formed text/,
    );
    const paired = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': '{ "name": "Docs \\ud83d\\udcd8 team" }' });
    expect(loadCorpus([paired]).map((d) => d.kb)).toEqual(['Docs 📘 team']);
  });

  it('never reads a kb.json linked to a file outside the corpus, and says so without quoting it', () => {
    const secret = join(tempDir('outside'), 'passwd');
    writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    const corpus = writeCorpus({ 'kb/a.md': '# A\n' });
    symlinkSync(secret, join(corpus, 'kb', 'kb.json'));
    let error: unknown;
    try {
      loadCorpus([corpus]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CorpusError);
    expect((error as Error).message).toMatch(
      /kb\/kb\.json is a symbolic link to a file outside its folder, which is never read/,
    );
    expect((error as Error).message).not.toMatch(/root/);
  });

  it('reports a kb.json that is not JSON without quoting its content', () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n', 'kb/kb.json': 'SECRET-TOKEN-1234 {' });
    expect(() => loadCorpus([corpus])).toThrow(
      /kb\/kb\.json is not valid JSON: expected \{ "name": .* \(each optional\)$/,
    );
    const corpus2 = writeCorpus({
      'kb/a.md': '# A\n',
      'kb/kb.json': JSON.stringify({ name: 'Docs', 'SECRET-TOKEN-1234': 1 }),
    });
    expect(() => loadCorpus([corpus2])).toThrow(/it has keys other than "name", "baseUrl" and "urlStyle"/);
    expect(() => loadCorpus([corpus2])).not.toThrow(/SECRET/);
  });

  it('follows no symbolic link to a Markdown file or folder, and names each link', () => {
    const outside = tempDir('outside');
    writeFileSync(join(outside, 'private.md'), '# Private\n');
    mkdirSync(join(outside, 'folder'));
    writeFileSync(join(outside, 'folder', 'inner.md'), '# Inner\n');
    const corpus = writeCorpus({ 'kb/a.md': '# A\n' });
    symlinkSync(join(outside, 'private.md'), join(corpus, 'kb', 'linked.md'));
    symlinkSync(join(outside, 'folder'), join(corpus, 'kb', 'linked-folder'));
    const { paths, warnings } = load(corpus);
    expect(paths).toEqual(['kb/a.md']);
    expect(warnings).toEqual([
      expect.stringMatching(/^skipped .*\/kb\/linked-folder: symbolic links are not followed/),
      expect.stringMatching(/^skipped .*\/kb\/linked\.md: symbolic links are not followed/),
    ]);
  });

  it('skips a file over the size limit without reading it, and reads the rest', () => {
    const corpus = writeCorpus({ 'kb/small.md': '# Small\n', 'kb/large.md': '# Large\n' + 'x'.repeat(5000) });
    const { paths, warnings } = load(corpus, 1000);
    expect(paths).toEqual(['kb/small.md']);
    expect(warnings).toEqual([
      'skipped kb/large.md: 5,008 bytes is over the limit of 1,000 bytes per file (SVC_DOCS_MAX_FILE_BYTES)',
    ]);
  });

  it('names and skips a FIFO or a socket with a Markdown name, and reads the rest', async () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n' });
    execFileSync('mkfifo', [join(corpus, 'kb', 'pipe.md')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(corpus, 'kb', 'socket.md'), resolve));
    try {
      const { paths, warnings } = load(corpus);
      expect(paths).toEqual(['kb/a.md']);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^skipped .*\/kb\/pipe\.md: it is a FIFO \(named pipe\), not a regular file \(only regular files are read\)$/,
        ),
        expect.stringMatching(/^skipped .*\/kb\/socket\.md: it is a socket, not a regular file/),
      ]);
    } finally {
      server.close();
    }
  });

  it('refuses a kb.json that is a folder, naming it', () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n' });
    mkdirSync(join(corpus, 'kb', 'kb.json'));
    expect(() => loadCorpus([corpus])).toThrow(
      /kb\/kb\.json is a folder, not a regular file: replace it with a file \{ "name": "\.\.\." \}$/,
    );
  });

  it('svc-docs index refuses a FIFO as kb.json in one line instead of waiting for a writer', async () => {
    const corpus = writeCorpus({ 'kb/a.md': '# A\n' });
    execFileSync('mkfifo', [join(corpus, 'kb', 'kb.json')]);
    // Before, the read waited for a writer for ever: the run was killed at its time limit.
    const run = await runCli(['index', '--corpus', corpus, '--out', tempDir('index')], { timeoutMs: 60_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([
      `svc-docs: ${join(corpus, 'kb', 'kb.json')} is a FIFO (named pipe), not a regular file: replace it with a file { "name": "..." }`,
    ]);
  }, 90_000);

  it('reads every supported format, and keeps the knowledge-base rule for each', () => {
    const single = writeCorpus({ 'page.html': '<p>a</p>', 'guide/notes.txt': 'b', 'nb.ipynb': '{}' });
    expect(load(single).paths.map((p) => p.replace(/^[^/]+\//, ''))).toEqual([
      'guide/notes.txt',
      'nb.ipynb',
      'page.html',
    ]);
    const split = writeCorpus({ 'site/index.htm': '<p>a</p>', 'manual/book.adoc': '= B', 'notes/a.TXT': 'c' });
    expect(load(split).paths).toEqual(['manual/book.adoc', 'notes/a.TXT', 'site/index.htm']);
  });

  it('counts files of other types by extension in one line, with a line of its own for a document format it does not read', () => {
    const corpus = writeCorpus({
      'kb/a.md': '# A\n',
      'kb/kb.json': '{ "name": "Docs" }',
      'kb/img/one.png': 'x',
      'kb/img/two.png': 'x',
      'kb/img/logo.svg': 'x',
      'kb/Makefile': 'x',
      'kb/api/intro.rst': 'Intro\n=====\n',
      'assets/only.css': 'x',
      '.git/config': 'x',
    });
    const { paths, warnings } = load(corpus);
    expect(paths).toEqual(['Docs/a.md']);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^skipped 1 file of type \.rst: reStructuredText has no well-kept JavaScript parser: build the HTML with Sphinx/,
      ),
      'skipped 5 files of unsupported types: .png (2), .css (1), .svg (1), no extension (1)',
    ]);
  });

  it('skips a file whose name is not valid UTF-8, naming it, and reads the rest', () => {
    const corpus = writeCorpus({ 'kb/good.md': '# Good\n' });
    writeFileSync(Buffer.from(`${join(corpus, 'kb')}/bad\xff.md`, 'latin1'), '# Bad\n');
    const { paths, warnings } = load(corpus);
    expect(paths).toEqual(['kb/good.md']);
    expect(warnings).toEqual([expect.stringMatching(/^skipped .*\/kb\/bad\uFFFD\.md: its name is not valid UTF-8/)]);
  });

  it('names the supported extensions when a folder holds no document', () => {
    const corpus = writeCorpus({ 'kb/a.rst': 'x', 'kb/b.png': 'x' });
    expect(() => loadCorpus([corpus])).toThrow(
      /^no documents found in .*: svc-docs reads files named \*\.md, \*\.markdown, \*\.mdx, \*\.html, \*\.htm, \*\.txt, \*\.ipynb, \*\.adoc, \*\.asciidoc$/,
    );
  });
});
