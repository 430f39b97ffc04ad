import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderBytes, type GitLimits } from '../../indexer/sources/git-bounds.js';
import { SourceError } from '../../indexer/sources/git.js';
import { syncGitSource } from '../../indexer/sources/git-source.js';
import { parseCorpusSpec, type GitSpec } from '../../src/corpus-spec.js';
import { testRemote } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/index-fixture.js';

/**
 * A git corpus's checkout is bounded before anything reaches the disk (indexer/sources/git-bounds.ts),
 * against real repositories made in a temp dir: a blob over the file limit is neither fetched nor
 * checked out, a repository of many files or of too many bytes is refused in one line.
 */

const MB = 1024 * 1024;

function sync(url: string, limits: GitLimits) {
  const lines: string[] = [];
  const sourcesDir = tempDir('sources');
  const spec = parseCorpusSpec(`git+${url}`) as GitSpec;
  const options = { sourcesDir, timeoutMs: 60_000, fetch: true, log: (l: string) => lines.push(l), limits };
  return { lines, sourcesDir, run: () => syncGitSource(spec, options) };
}

async function refusal(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

/** 3.3 MB that does not compress: in the repository, it would take about its size. */
const huge = () => `# Huge\n\n${randomBytes(2.5 * MB).toString('base64')}\n`;

const pages = {
  'docs/a.md': '# Heron\n\nHerons wade.\n',
  'docs/snippet.py': 'print("an include may name me")\n',
  'docs/logo.png': 'not really a png, never read',
};

describe("a git corpus's bounds on disk", () => {
  it('fetches no blob over the file limit and checks out only what a page or an include may read, in one line', async () => {
    const remote = testRemote();
    remote.push({ ...pages, 'docs/huge.md': huge() });
    const { lines, run } = sync(remote.url, { maxFileBytes: MB, maxTotalBytes: 64 * MB });
    const synced = await run();
    expect(readdirSync(join(synced.treeRoot, 'docs')).sort()).toEqual(['a.md', 'snippet.py']);
    expect(lines.filter((l) => /over SVC_DOCS_MAX_FILE_BYTES/.test(l))).toEqual([
      expect.stringMatching(
        /: 1 file\(s\) over SVC_DOCS_MAX_FILE_BYTES \(1\.0 MB\) not fetched nor checked out, e\.g\. huge\.md$/,
      ),
    ]);
    // The 3.3 MB blob stayed on the remote: the repository holds the small files alone.
    expect(folderBytes(join(synced.home, 'repo.git'))).toBeLessThan(MB);
  });

  it('leaves a blob over the file limit out of the checkout when the remote ignores the filter', async () => {
    const remote = testRemote('plain', false);
    remote.push({ ...pages, 'docs/huge.md': huge() });
    const { lines, run } = sync(remote.url, { maxFileBytes: MB, maxTotalBytes: 64 * MB });
    const synced = await run();
    expect(readdirSync(join(synced.treeRoot, 'docs')).sort()).toEqual(['a.md', 'snippet.py']);
    expect(lines.some((l) => /1 file\(s\) over SVC_DOCS_MAX_FILE_BYTES/.test(l))).toBe(true);
  });

  it('refuses a repository of many small files before writing one, and leaves nothing behind', async () => {
    const remote = testRemote();
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p/${i}.md`, `# ${i}\n`]));
    remote.push(many);
    // 300 files of a few bytes take 300 blocks of 4 KiB on disk: 1.2 MB, over a 1 MB cap.
    const { sourcesDir, run } = sync(remote.url, { maxFileBytes: MB, maxTotalBytes: MB });
    const error = await refusal(run());
    expect(error).toMatchObject({ code: 'corpus_unavailable', reason: 'too-large' });
    expect(error.message).toMatch(
      /: its checkout would write 1\.2 MB in 300 files, over SVC_DOCS_GIT_MAX_BYTES \(1\.0 MB\)/,
    );
    expect(error.message).not.toContain('\n');
    expect(readdirSync(sourcesDir)).toEqual([]);
    // Under a cap that fits them, the same repository is checked out whole.
    const fits = sync(remote.url, { maxFileBytes: MB, maxTotalBytes: 2 * MB });
    expect(readdirSync(join((await fits.run()).treeRoot, 'p'))).toHaveLength(300);
  });

  it('stops and refuses a fetch that adds more than the cap to the repository', async () => {
    const remote = testRemote();
    // Random bytes do not compress: three files under the file limit make a pack of about 2.3 MB.
    const noise = () => randomBytes(600 * 1024).toString('base64');
    remote.push({ 'a.md': noise(), 'b.md': noise(), 'c.md': noise() });
    const { sourcesDir, run } = sync(remote.url, { maxFileBytes: MB, maxTotalBytes: MB });
    const error = await refusal(run());
    expect(error).toMatchObject({ reason: 'too-large' });
    expect(error.message).toMatch(
      /is larger than SVC_DOCS_GIT_MAX_BYTES \(1\.0 MB\) allows to fetch: the fetch was stopped/,
    );
    expect(existsSync(sourcesDir) && readdirSync(sourcesDir)).toEqual([]);
  });
});
