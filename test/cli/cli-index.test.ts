import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeCorpus } from '../helpers/index-fixture.js';
import { afterAll } from 'vitest';
import { cliEnv, killChildren, run } from '../helpers/cli.js';

afterAll(killChildren);

/** `svc-docs index` and `svc-docs search` as users run them: what a build reports, what a search prints. */

describe('svc-docs index and search', () => {
  it('indexes a corpus, reports what changed on a reindex, and searches it as JSON', async () => {
    const corpus = writeCorpus({
      'kb/quokka.md': '# Quokkas\n\nThe quokka enclosure opens at nine.\n',
      'kb/tickets.md': '# Tickets\n\nBuy tickets at the gate.\n',
    });
    const out = tempDir('cli-index');
    const vectors = tempDir('cli-vectors');
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: vectors });

    const first = await run(['index', '--corpus', corpus, '--out', out], env);
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^indexed 2 documents \(2 parsed, 0 unchanged\), 2 sections from kb in \d+\.\d s$/);
    expect(lines[1]).toBe('section vectors: 2 embedded, 0 reused from cache');
    expect(lines.slice(2, 5)).toEqual([
      'changes since the previous index: 2 added, 0 changed, 0 removed',
      '  + kb/quokka.md',
      '  + kb/tickets.md',
    ]);
    expect(lines[5]).toMatch(new RegExp(`^index written to ${out}/build-[\\w-]+$`));
    expect(lines).toHaveLength(6);
    // SVC_DOCS_VECTOR_CACHE_DIR is where the vectors went.
    expect(readdirSync(vectors).filter((f) => f.endsWith('.bin'))).toHaveLength(1);

    writeFileSync(join(corpus, 'kb', 'quokka.md'), '# Quokkas\n\nThe quokka enclosure opens at ten.\n');
    const second = await run(['index', '--corpus', corpus, '--out', out], env);
    expect(second.code, second.stderr).toBe(0);
    const again = second.stdout.trimEnd().split('\n');
    expect(again[0]).toMatch(/^indexed 2 documents \(1 parsed, 1 unchanged\), /);
    expect(again[1]).toBe('section vectors: 1 embedded, 1 reused from cache');
    expect(again.slice(2, 4)).toEqual([
      'changes since the previous index: 0 added, 1 changed, 0 removed',
      '  ~ kb/quokka.md',
    ]);

    const search = await run(['search', 'quokka', 'enclosure', '--json', '--index', out]);
    expect(search.code, search.stderr).toBe(0);
    const results = JSON.parse(search.stdout) as { source: string; path: string; sections: { text: string }[] }[];
    expect(results[0]).toMatchObject({ source: 'kb', path: 'quokka.md' });
    expect(results[0]!.sections.map((s) => s.text).join('\n')).toContain('opens at ten');
  });
});

describe('svc-docs index on a folder of several formats', () => {
  it('indexes HTML, plain text and notebooks, and names each file it leaves out once, with why', async () => {
    const notebook = JSON.stringify({
      nbformat: 4,
      metadata: { kernelspec: { language: 'python' } },
      cells: [{ cell_type: 'markdown', source: '# Wombat feeding\n\nWombats eat grass at dusk.' }],
    });
    const corpus = writeCorpus({
      'kb/page.html':
        '<html><head><title>Quokkas | Zoo</title></head><body><nav>Menu</nav><main><h1>Quokkas</h1><p>The quokka enclosure opens at nine.</p></main></body></html>',
      'kb/notes.txt': 'Tickets\n=======\n\nBuy tickets at the gate.\n',
      'kb/feeding.ipynb': notebook,
      'kb/broken.ipynb': '{ "cells": [',
      'kb/huge.md': `# Huge\n\n${'x'.repeat(3000)}\n`,
      'kb/img/map.png': 'png',
      'kb/img/logo.png': 'png',
      'kb/api.rst': 'API\n===\n',
    });
    const env = cliEnv({ SVC_DOCS_VECTOR_CACHE_DIR: tempDir('cli-vectors'), SVC_DOCS_MAX_FILE_BYTES: '2000' });
    const result = await run(['index', '--corpus', corpus, '--out', tempDir('cli-index')], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^indexed 3 documents \(3 parsed, 0 unchanged\), 3 sections from kb in /);
    expect(lines[1]).toBe(
      'skipped 5 files (named above): 1 over the size limit, 1 that could not be read, 3 of types not read',
    );
    const told = (pattern: RegExp) => result.stderr.split('\n').filter((l) => pattern.test(l));
    expect(told(/huge\.md/)).toEqual([
      'skipped kb/huge.md: 3,009 bytes is over the limit of 2,000 bytes per file (SVC_DOCS_MAX_FILE_BYTES)',
    ]);
    expect(told(/broken\.ipynb/)).toEqual([
      'skipped kb/broken.ipynb: it could not be read as a Jupyter notebook (its text is not JSON); the rest of the corpus is indexed',
    ]);
    expect(told(/\.rst/)).toEqual([
      expect.stringMatching(/^skipped 1 file of type \.rst: reStructuredText has no well-kept/),
    ]);
    expect(told(/\.png/)).toEqual(['skipped 2 files of unsupported types: .png (2)']);

    const search = await run([
      'search',
      'quokka',
      'enclosure',
      '--json',
      '--index',
      lines.at(-1)!.replace(/^index written to (.*)\/build-[\w-]+$/, '$1'),
    ]);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout)[0]).toMatchObject({ title: 'Quokkas', path: 'page.html' });
  });
});
