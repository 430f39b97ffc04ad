import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { SETTINGS } from '../../src/settings/catalogue.js';
import { type GitRun, gitSays, runGit, SourceError } from './git.js';

/**
 * A git corpus's bounds on disk (issue 40): a hostile repository (a huge blob, millions of files)
 * must never fill the cache. Three steps, each bounded before anything reaches the disk:
 * - the fetch asks for no blob over the file limit (`--filter=blob:limit`, where the remote
 *   supports filters), and git is stopped once the repository has grown by more than the cap;
 * - the checkout names its files (pathspecs from a file): those the indexer or an include may read,
 *   none over the file limit (sent anyway by a remote without filters) and none the remote left out;
 * - the files it would write, each rounded up to a disk block, must fit the cap, or the corpus is
 *   refused with one line before one is written.
 */

export interface GitLimits {
  /** SVC_DOCS_MAX_FILE_BYTES: a larger file is not fetched (the loader would skip it anyway). */
  maxFileBytes: number;
  /** SVC_DOCS_GIT_MAX_BYTES: what one fetch may add to the repository, and one checkout may write. */
  maxTotalBytes: number;
}

export const DEFAULT_GIT_LIMITS: GitLimits = {
  maxFileBytes: SETTINGS.maxFileBytes.default,
  maxTotalBytes: SETTINGS.gitMaxBytes.default,
};

/** A file's cost on disk: its bytes rounded up to a block, so a million empty files count too. */
const BLOCK = 4096;
const onDisk = (bytes: number) => Math.max(1, Math.ceil(bytes / BLOCK)) * BLOCK;

/**
 * Files no include or page is read from: images, fonts, archives, media, binaries. Everything
 * else a corpus holds may be a page or an include's target (a code sample a snippet names), so
 * it is checked out; the cap bounds it.
 */
const NEVER_READ = new Set(
  (
    '.png .jpg .jpeg .gif .webp .avif .bmp .ico .tif .tiff .psd .ai .eps .pdf .zip .gz .tgz .bz2 .xz .zst .7z .rar .tar ' +
    '.jar .war .whl .woff .woff2 .ttf .otf .eot .mp3 .mp4 .m4a .mov .avi .mkv .webm .wav .ogg .flac .exe .dll .so ' +
    '.dylib .a .o .bin .iso .dmg .class .pyc .wasm .sqlite .db .parquet .npy .pt .onnx .safetensors'
  ).split(' '),
);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The fetch's filter: blobs over the file limit stay on the remote. */
export function fetchFilter(limits: GitLimits): string {
  return `--filter=blob:limit=${limits.maxFileBytes + 1}`;
}

/** Bytes of the files below `dir` (not following links). */
export function folderBytes(dir: string): number {
  let total = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue; // A temporary pack renamed meanwhile.
    }
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else
        try {
          total += lstatSync(path).size;
        } catch {
          // Gone meanwhile.
        }
    }
  }
  return total;
}

/** Refusal for a fetch that grew the repository past the cap. */
export function fetchTooLarge(what: string, limits: GitLimits): SourceError {
  return new SourceError(
    `${what} is larger than SVC_DOCS_GIT_MAX_BYTES (${mb(limits.maxTotalBytes)}) allows to fetch: the fetch was stopped; index a subfolder (#branch:folder) or raise the cap`,
    'too-large',
  );
}

interface TreeEntry {
  mode: string;
  oid: string;
  path: string;
}

/** Every file of the commit (`ls-tree -r -z`): mode, object and path; a listing git cut short is refused. */
async function listTree(repo: string, commit: string, what: string, run: GitRun, limits: GitLimits) {
  const result = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], { ...run, cwd: repo });
  if (result.exitCode !== 0) throw new SourceError(`cannot list ${what}: ${gitSays(result.stderr)}`, 'git-failed');
  if (result.truncated) throw tooManyFiles(what, limits);
  const entries: TreeEntry[] = [];
  for (const record of result.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    if (type === 'blob') entries.push({ mode: mode!, oid: oid!, path: record.slice(tab + 1) });
  }
  return entries;
}

function tooManyFiles(what: string, limits: GitLimits): SourceError {
  return new SourceError(
    `${what} lists more files than svc-docs reads from one repository (SVC_DOCS_GIT_MAX_BYTES ${mb(limits.maxTotalBytes)}): index a subfolder (#branch:folder)`,
    'too-large',
  );
}

/** Sizes of the objects the repository holds (those the filter left out are absent); never fetches. */
async function presentSizes(repo: string, what: string, run: GitRun, limits: GitLimits) {
  const format = '--batch-check=%(objectname) %(objecttype) %(objectsize)';
  const result = await runGit(['cat-file', '--batch-all-objects', '--unordered', format], { ...run, cwd: repo });
  if (result.exitCode !== 0) throw new SourceError(`cannot read ${what}: ${gitSays(result.stderr)}`, 'git-failed');
  if (result.truncated) throw tooManyFiles(what, limits);
  const sizes = new Map<string, number>();
  for (const line of result.stdout.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (type === 'blob') sizes.set(oid!, Number(size));
  }
  return sizes;
}

/** Whether `path` is one of `roots` or below one ('.' is the whole tree). */
function under(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => root === '.' || path === root || path.startsWith(`${root}/`));
}

export interface PlannedCheckout {
  /** Paths to check out, literal. */
  paths: string[];
  bytes: number;
}

/**
 * The files of `roots` to check out: refuses the whole corpus, in one line, when they would
 * write more than the cap; logs one line for the files left out for their size.
 */
export async function planCheckout(
  repo: string,
  commit: string,
  roots: readonly string[],
  context: { what: string; run: GitRun; limits: GitLimits; log: (line: string) => void },
): Promise<PlannedCheckout> {
  const { what, run, limits } = context;
  const entries = (await listTree(repo, commit, what, run, limits)).filter(
    (e) => under(e.path, roots) && !NEVER_READ.has(extname(e.path).toLowerCase()),
  );
  const sizes = await presentSizes(repo, what, run, limits);
  const paths: string[] = [];
  const oversize: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = sizes.get(entry.oid);
    // Absent: the filter kept it on the remote (over the limit). A link's target is a short path.
    if (size === undefined || (entry.mode !== '120000' && size > limits.maxFileBytes)) oversize.push(entry.path);
    else {
      paths.push(entry.path);
      bytes += onDisk(size);
    }
  }
  if (oversize.length > 0)
    context.log(
      `${what}: ${oversize.length} file(s) over SVC_DOCS_MAX_FILE_BYTES (${mb(limits.maxFileBytes)}) not fetched nor checked out, e.g. ${basename(oversize[0]!)}`,
    );
  if (bytes > limits.maxTotalBytes)
    throw new SourceError(
      `${what}: its checkout would write ${mb(bytes)} in ${paths.length} files, over SVC_DOCS_GIT_MAX_BYTES (${mb(limits.maxTotalBytes)}): index a subfolder (#branch:folder) or raise the cap`,
      'too-large',
    );
  return { paths, bytes };
}

/** Writes the paths for `git checkout --pathspec-from-file --pathspec-file-nul`. */
export function writePathspecs(file: string, paths: readonly string[]): void {
  writeFileSync(file, paths.map((p) => `${p}\0`).join(''));
}
