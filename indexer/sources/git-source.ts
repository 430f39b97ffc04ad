import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { corpusKey, type GitSpec, specText } from '../../src/corpus-spec.js';
import { SITE_CONFIG_FILES } from '../load/site-config.js';
import { type GitRun, gitSays, runGit, SourceError } from './git.js';
import {
  DEFAULT_GIT_LIMITS,
  fetchFilter,
  fetchTooLarge,
  folderBytes,
  type GitLimits,
  planCheckout,
  writePathspecs,
} from './git-bounds.js';
import { acquireSourceLock } from './source-lock.js';

/**
 * A git corpus's local copy, in `<sources>/<key>/` (key: corpus-spec.ts's corpusKey):
 *   repo.git/        a bare repository holding one shallow fetch of the branch (--depth 1, no blob
 *                    over the file limit: git-bounds.ts)
 *   trees/<commit>/  the files at a commit (those an index may read, within the size cap: git-bounds.ts),
 *                    checked out into a temporary folder and renamed into place, never changed afterwards
 *   current          a symbolic link to the last tree, switched by rename
 * A build reads one tree from start to end, so a concurrent update never shows it half of one
 * commit and half of another; the tree before the last is kept for a build still reading it.
 * The remote is asked for the branch's commit first (git ls-remote): when that is the current
 * tree's, nothing is fetched, so a poll costs one round trip.
 */

export interface GitSourceOptions {
  /** `<cache>/sources`. */
  sourcesDir: string;
  timeoutMs: number;
  /** False: use the last fetched tree without asking the remote (an error when there is none). */
  fetch: boolean;
  log: (line: string) => void;
  /** The file limit and the size cap; default the settings' defaults. */
  limits?: GitLimits;
}

export interface SyncedSource {
  /** The folder to index: the tree, or its subfolder. */
  dir: string;
  /** The whole checked-out tree (site configurations above the subfolder are in it). */
  treeRoot: string;
  /** The clone's own folder: everything below it belongs to this corpus. */
  home: string;
  commit: string;
  /** The commit differs from the one fetched before. */
  changed: boolean;
}

const REPO = 'repo.git';
const TREES = 'trees';
const CURRENT = 'current';
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export async function syncGitSource(spec: GitSpec, options: GitSourceOptions): Promise<SyncedSource> {
  const home = join(options.sourcesDir, corpusKey(spec));
  const what = specText(spec);
  if (!options.fetch) {
    const last = currentCommit(home);
    if (last === undefined)
      throw new SourceError(`${what} has not been fetched yet: run 'svc-docs index'`, 'not-fetched');
    return synced(spec, home, last, false);
  }
  mkdirSync(home, { recursive: true });
  const release = acquireSourceLock(join(home, 'lock'), what);
  // Read under the lock: another process may have switched it just before.
  const previous = currentCommit(home);
  let fetched = false;
  try {
    const run: GitRun = { timeoutMs: options.timeoutMs, cwd: home };
    const bounds = { what, run, limits: options.limits ?? DEFAULT_GIT_LIMITS, log: options.log };
    const remote = await remoteCommit(spec, what, run);
    if (remote === previous) {
      options.log(`${what}: commit ${remote.slice(0, 12)}, unchanged`);
      fetched = true;
      return synced(spec, home, remote, false);
    }
    const repo = await ensureRepo(home, spec, run);
    const commit = await fetchCommit(repo, spec, bounds);
    await checkoutTree(home, repo, commit, spec, bounds);
    switchCurrent(home, commit);
    pruneTrees(home, [commit, previous]);
    options.log(`${what}: fetched commit ${commit.slice(0, 12)}`);
    fetched = true;
    return synced(spec, home, commit, commit !== previous);
  } finally {
    // A first fetch that failed (a mistyped URL or branch) leaves no folder behind.
    if (!fetched && previous === undefined) emptyBesideLock(home);
    release();
    if (!fetched && previous === undefined) rmEmptyFolder(home);
  }
}

function emptyBesideLock(home: string): void {
  for (const entry of readdirSync(home))
    if (entry !== 'lock') rmSync(join(home, entry), { recursive: true, force: true });
}

function rmEmptyFolder(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Another process took the lock meanwhile and is filling it.
  }
}

function synced(spec: GitSpec, home: string, commit: string, changed: boolean): SyncedSource {
  const treeRoot = join(home, TREES, commit);
  const dir = spec.subfolder === undefined ? treeRoot : join(treeRoot, ...spec.subfolder.split('/'));
  return { dir, treeRoot, home, commit, changed };
}

/** The commit of the last tree switched to, while that tree is there. */
function currentCommit(home: string): string | undefined {
  try {
    const commit = basename(readlinkSync(join(home, CURRENT)));
    return COMMIT.test(commit) && existsSync(join(home, TREES, commit)) ? commit : undefined;
  } catch {
    return undefined;
  }
}

function remoteRef(spec: GitSpec): string {
  return spec.branch === undefined ? 'HEAD' : `refs/heads/${spec.branch}`;
}

/** The branch's commit on the remote (ls-remote exits 2 when no ref matches, 128 when the remote cannot be read). */
async function remoteCommit(spec: GitSpec, what: string, run: GitRun): Promise<string> {
  const ref = remoteRef(spec);
  const result = await runGit(['ls-remote', '--exit-code', '--', spec.url, ref], run);
  const line = result.stdout
    .split('\n')
    .map((l) => l.split('\t'))
    .find(([, name]) => name === ref);
  if (result.exitCode === 0 && line && COMMIT.test(line[0]!)) return line[0]!;
  if (result.exitCode === 0 || result.exitCode === 2)
    throw spec.branch === undefined
      ? new SourceError(`${what} has no commits (its default branch is empty)`, 'empty-repository')
      : new SourceError(`${what}: branch "${spec.branch}" not found in the repository`, 'branch-not-found');
  throw new SourceError(`cannot reach ${what}: ${gitSays(result.stderr)}`, 'unreachable');
}

async function mustRun(args: string[], run: GitRun, failure: string): Promise<string> {
  const result = await runGit(args, run);
  if (result.exitCode !== 0) throw new SourceError(`${failure}: ${gitSays(result.stderr)}`, 'git-failed');
  return result.stdout;
}

/** The bare repository with its remote, made in a temporary folder and renamed into place, so a half-made one is never used. */
async function ensureRepo(home: string, spec: GitSpec, run: GitRun): Promise<string> {
  const repo = join(home, REPO);
  if (existsSync(join(repo, 'HEAD'))) return repo;
  const tmp = `${repo}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  await mustRun(['init', '--quiet', '--bare', '--', tmp], run, 'cannot create a git repository in the cache');
  await mustRun(['remote', 'add', '--', 'origin', spec.url], { ...run, cwd: tmp }, 'git remote add failed');
  rmSync(repo, { recursive: true, force: true });
  renameSync(tmp, repo);
  return repo;
}

/** What the fetch and the checkout are bounded by, and where they tell what they left out (git-bounds.ts). */
type Bounds = Parameters<typeof planCheckout>[3];

/**
 * Fetches the branch's commit, no blob over the file limit; a fetch that grows the repository by
 * more than the cap is stopped (or, done before the guard looked, undone) and refused.
 */
async function fetchCommit(repo: string, spec: GitSpec, { what, run, limits }: Bounds): Promise<string> {
  const args = ['fetch', '--quiet', '--no-tags', '--depth', '1', fetchFilter(limits), '--', 'origin', remoteRef(spec)];
  const before = folderBytes(repo);
  const grown = () => folderBytes(repo) - before > limits.maxTotalBytes;
  let result;
  try {
    result = await runGit(args, {
      ...run,
      cwd: repo,
      guard: () => (grown() ? fetchTooLarge(what, limits) : undefined),
    });
    if (grown()) throw fetchTooLarge(what, limits);
  } catch (error) {
    // What it fetched is not used: the next fetch starts from an empty repository.
    if (error instanceof SourceError && error.reason === 'too-large') rmSync(repo, { recursive: true, force: true });
    throw error;
  }
  if (result.exitCode !== 0) throw new SourceError(`cannot fetch ${what}: ${gitSays(result.stderr)}`, 'unreachable');
  const commit = (await mustRun(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'], { ...run, cwd: repo }, what)).trim();
  if (!COMMIT.test(commit)) throw new SourceError(`${what}: git named no commit for the branch`, 'git-failed');
  return commit;
}

/** What to check out: the whole tree, or the subfolder and the site configurations above it (for the site's name and URL). */
async function checkoutRoots(
  repo: string,
  commit: string,
  spec: GitSpec,
  what: string,
  run: GitRun,
): Promise<string[]> {
  const sub = spec.subfolder;
  if (sub === undefined) return ['.'];
  const git = { ...run, cwd: repo };
  const kind = await runGit(['cat-file', '-t', `${commit}:${sub}`], git);
  if (kind.exitCode !== 0 || kind.stdout.trim() !== 'tree')
    throw new SourceError(
      `${what}: subfolder "${sub}" not found at commit ${commit.slice(0, 12)}`,
      'subfolder-not-found',
    );
  // The folders above the subfolder may hold the site's configuration (mkdocs.yml beside docs/).
  const parts = sub.split('/');
  const candidates = parts.flatMap((_, depth) =>
    SITE_CONFIG_FILES.map((file) => [...parts.slice(0, depth), file].join('/')),
  );
  const listed = await runGit(['ls-tree', '--name-only', commit, '--', ...candidates], git);
  const roots = [sub];
  for (const file of listed.stdout.split('\n')) if (candidates.includes(file)) roots.push(file);
  return roots;
}

async function checkoutTree(home: string, repo: string, commit: string, spec: GitSpec, bounds: Bounds): Promise<void> {
  const { what, run } = bounds;
  const tree = join(home, TREES, commit);
  if (existsSync(tree)) return;
  const roots = await checkoutRoots(repo, commit, spec, what, run);
  const { paths } = await planCheckout(repo, commit, roots, bounds);
  const tmp = `${tree}.${process.pid}.tmp`;
  const pathspecs = join(home, `pathspecs.${process.pid}.tmp`);
  // The repository's index describes the last checkout, into another folder: without it, checkout
  // writes every path it names into the empty one (the lock keeps other checkouts out meanwhile).
  const index = join(repo, 'index');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    rmSync(index, { force: true });
    // Named one by one (literally, from a file: there may be many): no other file is written.
    writePathspecs(pathspecs, paths);
    if (paths.length > 0)
      await mustRun(
        ['--literal-pathspecs', '--work-tree', tmp, 'checkout', '--quiet', '--force', commit].concat([
          '--pathspec-from-file',
          pathspecs,
          '--pathspec-file-nul',
        ]),
        { ...run, cwd: repo },
        `cannot check out ${what}`,
      );
    renameSync(tmp, tree);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(index, { force: true });
    rmSync(pathspecs, { force: true });
  }
}

function switchCurrent(home: string, commit: string): void {
  const link = join(home, CURRENT);
  const tmp = `${link}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(join(TREES, commit), tmp);
  renameSync(tmp, link);
}

/** Drops every tree but the current and the one before (and any a killed update left half-made). */
function pruneTrees(home: string, keep: (string | undefined)[]): void {
  const trees = join(home, TREES);
  for (const entry of readdirSync(trees))
    if (!keep.includes(entry)) rmSync(join(trees, entry), { recursive: true, force: true });
}
