import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, type BuildOptions } from '../../indexer/build.js';
import { SourceError } from '../../indexer/sources/git.js';
import { corpusRoots } from '../../indexer/sources/corpus-roots.js';
import { syncGitSource } from '../../indexer/sources/git-source.js';
import { CorpusSpecError, corpusKey, parseCorpusSpec, type GitSpec } from '../../src/corpus-spec.js';
import { openEngine } from '../../src/search/engine.js';
import { testRemote } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/index-fixture.js';

/**
 * A git repository as a corpus, against a real bare repository reached by its file:// URL: cloned
 * into the cache, indexed and searched through the real engine like a folder, updated on the next
 * build, and every mistake one line.
 */

function gitBuild(corpus: string, sourcesDir = tempDir('sources')) {
  const outDir = tempDir('index');
  const lines: string[] = [];
  const options: BuildOptions = {
    corpusDirs: [corpus],
    outDir,
    vectorCacheDir: tempDir('vectors'),
    sources: { sourcesDir },
    log: (line) => lines.push(line),
  };
  return { outDir, lines, sourcesDir, build: () => buildIndex(options) };
}

async function firstHit(outDir: string, term: string) {
  const engine = await openEngine(outDir);
  try {
    return (await engine.search(term, { limit: 3 }))[0];
  } finally {
    await engine.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; reason?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; reason?: string };
  }
  throw new Error('expected a failure');
}

describe('a git repository as a corpus', () => {
  it('is cloned, indexed and searched like a folder; a pushed change is fetched by the next build', async () => {
    const remote = testRemote();
    remote.push({
      'README.md': '# Heron Handbook\n\nHow we run herons.\n',
      'ops/rollback.md': '# Rollback\n\n## Flamingo rollback\n\nRun `heronctl rollback --to previous` to redeploy.\n',
    });
    const run = gitBuild(`git+${remote.url}`);
    const first = await run.build();
    expect(first.documents).toBe(2);
    // Named by its home page's title, not after the cache folder the commit was checked out to.
    expect(first.knowledgeBases).toEqual(['Heron Handbook']);
    expect(await firstHit(run.outDir, 'flamingo rollback')).toMatchObject({
      source: 'Heron Handbook',
      path: 'ops/rollback.md',
    });

    const again = await run.build();
    expect(again.unchanged).toBe(true);
    expect(run.lines.some((l) => /, unchanged$/.test(l))).toBe(true);

    remote.push({ 'ops/pager.md': '# Pager\n\nThe pelican pager wakes whoever is on call.\n' });
    const updated = await run.build();
    expect(updated.changes).toEqual({ added: ['Heron Handbook/ops/pager.md'], changed: [], removed: [] });
    expect((await firstHit(run.outDir, 'pelican pager'))?.path).toBe('ops/pager.md');
  });

  it('reads the branch and subfolder it names, and names itself after the repository', async () => {
    const remote = testRemote('bird-docs');
    remote.push({ 'docs/a.md': '# Main page\n\nOn main the albatross.\n', 'other/x.md': '# Elsewhere\n' });
    remote.push({ 'docs/a.md': '# Stable page\n\nOn stable the stork.\n', 'docs/b.md': '# Second\n' }, 'stable');
    const run = gitBuild(`git+${remote.url}#stable:docs`);
    const summary = await run.build();
    expect(summary.documents).toBe(2);
    expect(summary.knowledgeBases).toEqual(['bird-docs']);
    expect((await firstHit(run.outDir, 'stork'))?.path).toBe('a.md');
    expect(await firstHit(run.outDir, 'albatross')).toBeUndefined();

    // The default branch's subfolder, written `#:docs` or `:docs`.
    for (const spec of [`git+${remote.url}#:docs`, `git+${remote.url}:docs`]) {
      const main = gitBuild(spec);
      expect((await main.build()).documents).toBe(1);
      expect((await firstHit(main.outDir, 'albatross'))?.path).toBe('a.md');
    }
  });

  it('keeps each commit in a tree of its own: an update never changes a tree a build may be reading', async () => {
    const remote = testRemote();
    const one = remote.push({ 'a.md': '# One\n' });
    const spec = parseCorpusSpec(`git+${remote.url}`) as GitSpec;
    const options = { sourcesDir: tempDir('sources'), timeoutMs: 60_000, fetch: true, log: () => {} };
    const first = await syncGitSource(spec, options);
    expect(first).toMatchObject({ commit: one, changed: true });
    const two = remote.push({ 'a.md': '# Two\n' });
    const second = await syncGitSource(spec, options);
    expect(second).toMatchObject({ commit: two, changed: true });
    expect(second.dir).not.toBe(first.dir);
    expect(readFileSync(join(first.dir, 'a.md'), 'utf8')).toBe('# One\n');
    expect(readFileSync(join(second.dir, 'a.md'), 'utf8')).toBe('# Two\n');
    // Without fetching: the last tree, as serve's check of its index reads it.
    expect(await syncGitSource(spec, { ...options, fetch: false })).toMatchObject({ dir: second.dir, changed: false });
    // Only the current tree and the one before are kept.
    remote.push({ 'a.md': '# Three\n' });
    await syncGitSource(spec, options);
    expect(existsSync(first.dir)).toBe(false);
    expect(readdirSync(join(second.home, 'trees'))).toHaveLength(2);
  });

  it('says in one line when the branch, subfolder or repository is not there, or not fetched yet', async () => {
    const remote = testRemote();
    remote.push({ 'docs/a.md': '# A\n' });
    const sourcesDir = tempDir('sources');
    const cases: [string, string, RegExp][] = [
      [`git+${remote.url}#nope`, 'branch-not-found', /^git\+file:.*#nope: branch "nope" not found in the repository$/],
      [`git+${remote.url}#main:guide`, 'subfolder-not-found', /: subfolder "guide" not found at commit [0-9a-f]{12}$/],
      [`git+${remote.url}x`, 'unreachable', /^cannot reach git\+file:.*docs\.gitx: fatal: .*$/],
    ];
    for (const [spec, code, message] of cases) {
      const error = await failure(corpusRoots([spec], { sourcesDir }));
      expect(error, spec).toBeInstanceOf(SourceError);
      expect(error).toMatchObject({ code: 'corpus_unavailable', reason: code });
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('\n');
    }
    // A first fetch that failed leaves nothing in the cache.
    expect(readdirSync(sourcesDir)).toEqual([]);
    const unfetched = await failure(corpusRoots([`git+${remote.url}#main`], { sourcesDir, fetch: false }));
    expect(unfetched.reason).toBe('not-fetched');
    expect(unfetched.message).toMatch(/has not been fetched yet: run 'svc-docs index'$/);
  });

  it('refuses a URL with credentials or a leading dash before running git, never repeating the secret', async () => {
    const sourcesDir = tempDir('sources');
    for (const spec of [
      'git+https://alice:hunter2-SECRET@git.example.com/docs.git',
      'git+https://ghp_SECRETTOKEN@github.com/o/docs.git#main:docs',
      'git+ssh://deploy:SECRET@git.example.com/docs.git',
    ]) {
      const error = await failure(corpusRoots([spec], { sourcesDir }));
      expect(error).toBeInstanceOf(CorpusSpecError);
      expect(error).toMatchObject({ code: 'invalid_corpus', reason: 'credentials' });
      expect(error.message).toMatch(/credential helper/);
      expect(error.message).not.toMatch(/SECRET|hunter2|alice|deploy/);
    }
    const dash = await failure(corpusRoots(['git+--upload-pack=touch /tmp/x'], { sourcesDir }));
    expect(dash).toBeInstanceOf(CorpusSpecError);
    expect(readdirSync(sourcesDir)).toEqual([]);
  });

  it('refuses to update a clone another live process is updating, and takes over a dead one’s lock', async () => {
    const remote = testRemote();
    remote.push({ 'a.md': '# A\n' });
    const spec = `git+${remote.url}`;
    const sourcesDir = tempDir('sources');
    const home = join(sourcesDir, corpusKey(parseCorpusSpec(spec)));
    await corpusRoots([spec], { sourcesDir });
    // pid 1 is always alive (and not ours): another process holds the lock.
    writeFileSync(join(home, 'lock'), '1\n');
    const locked = await failure(corpusRoots([spec], { sourcesDir }));
    expect(locked).toMatchObject({ code: 'corpus_unavailable', reason: 'locked' });
    expect(locked.message).toMatch(/is being updated by another svc-docs process \(pid 1\)/);
    // A holder that has exited leaves its lock behind; the next update takes it over.
    writeFileSync(join(home, 'lock'), '2147483646\n');
    expect(await corpusRoots([spec], { sourcesDir })).toHaveLength(1);
    expect(existsSync(join(home, 'lock'))).toBe(false);
  });
});
