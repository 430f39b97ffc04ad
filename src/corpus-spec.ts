import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { SvcDocsError } from './errors.js';

/**
 * What a `--corpus` entry names: a folder, or a git repository written
 * `git+<url>[#<branch>][:<subfolder>]` (any URL git accepts: `file://`, `ssh://`, `git@host:path`,
 * `https://`). Pure: parsing, checking and naming only; the indexer's git source
 * (indexer/sources/git.ts) clones what a spec names.
 *
 * The subfolder's `:` is told apart from the URL's own colons by where it stands: after `#branch`
 * (`#main:docs`, or `#:docs` for the default branch), else in the URL's path (after the host of a
 * `scheme://` URL, after the `host:` of an scp-like one, anywhere in a local path).
 */

export type FolderSpec = { kind: 'folder'; path: string };
export interface GitSpec {
  kind: 'git';
  /** As written, without `git+`, branch or subfolder. Never carries a password (refused). */
  url: string;
  /** Undefined: the remote's default branch (its HEAD). */
  branch: string | undefined;
  /** Forward slashes, no leading or trailing slash; undefined: the whole repository. */
  subfolder: string | undefined;
}
/** A published website, crawled from its start URL (indexer/sources/web-source.ts). */
export interface WebSpec {
  kind: 'web';
  /** The start URL, without fragment; only pages under its folder are read. Never carries credentials (refused). */
  url: string;
}
export type CorpusSpec = FolderSpec | GitSpec | WebSpec;

export type CorpusSpecReason = 'bad-url' | 'credentials' | 'bad-branch' | 'bad-subfolder';

/** A `git+…` corpus that cannot be used as written; the message never holds a credential. */
export class CorpusSpecError extends SvcDocsError<'invalid_corpus'> {
  override name = 'CorpusSpecError';
  constructor(
    message: string,
    /** What is wrong with it. */
    readonly reason: CorpusSpecReason,
  ) {
    super('invalid_corpus', message);
  }
}

const GIT_PREFIX = 'git+';
const SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;
const CONTROL = /[\p{Cc}\s\u2028\u2029]/u;
/** What `git check-ref-format` refuses, in short: no `..`, `@{`, control or special characters, no leading `-`. */
const BAD_BRANCH = /(^[-/.])|\.\.|@\{|[\p{Cc}\s~^:?*[\\]|\/\/|([/.]|\.lock)$/u;

export function parseCorpusSpec(text: string): CorpusSpec {
  // `https://…` or `http://…`: a website to crawl.
  if (/^https?:\/\//i.test(text)) return parseWebSpec(text);
  if (!text.startsWith(GIT_PREFIX)) return { kind: 'folder', path: text };
  const rest = text.slice(GIT_PREFIX.length);
  const hash = rest.indexOf('#');
  let url = rest;
  let branch: string | undefined;
  let subfolder: string | undefined;
  if (hash >= 0) {
    url = rest.slice(0, hash);
    const after = rest.slice(hash + 1);
    const colon = after.indexOf(':');
    branch = colon >= 0 ? after.slice(0, colon) : after;
    subfolder = colon >= 0 ? after.slice(colon + 1) : undefined;
  } else {
    const colon = subfolderColon(rest);
    if (colon >= 0) [url, subfolder] = [rest.slice(0, colon), rest.slice(colon + 1)];
  }
  checkUrl(url);
  return { kind: 'git', url, branch: checkBranch(url, branch), subfolder: checkSubfolder(url, subfolder) };
}

/** Where a subfolder's `:` stands in `git+<url>:<subfolder>` (no `#`), or -1: the first colon after the host part. */
function subfolderColon(url: string): number {
  return url.indexOf(':', (hostPart(url)?.end ?? -1) + 1);
}

/**
 * The URL's host part (`[user@]host[:port]`) and where it ends: after `scheme://`, up to the path;
 * in an scp-like `[user@]host:path`, before the colon. A local path has none.
 */
function hostPart(url: string): { text: string; end: number } | undefined {
  const scheme = SCHEME.exec(url);
  if (scheme) {
    const slash = url.indexOf('/', scheme[0].length);
    const end = slash < 0 ? url.length : slash;
    return { text: url.slice(scheme[0].length, end), end };
  }
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  // scp-like: git's rule is a colon before any slash.
  return colon > 0 && (slash < 0 || colon < slash) ? { text: url.slice(0, colon), end: colon } : undefined;
}

function parseWebSpec(text: string): WebSpec {
  const url = URL.parse(text);
  if (url === null)
    throw new CorpusSpecError(
      `${displayUrl(text)} is not a URL: give a website's start page, e.g. https://docs.example.com/guide/`,
      'bad-url',
    );
  if (url.username !== '' || url.password !== '')
    throw new CorpusSpecError(
      `${displayUrl(text)}: the URL carries credentials, which svc-docs never stores or logs; crawl a site that needs none`,
      'credentials',
    );
  url.hash = '';
  return { kind: 'web', url: url.href };
}

/** The part before the host: `user` or `user:password`, when the URL has one. */
function userInfo(url: string): string | undefined {
  const host = hostPart(url)?.text ?? '';
  const at = host.lastIndexOf('@');
  return at < 0 ? undefined : host.slice(0, at);
}

/** The URL as it may be shown: any user name and password replaced by `***`. */
export function displayUrl(url: string): string {
  const info = userInfo(url);
  return info === undefined ? url : url.replace(`${info}@`, '***@');
}

function checkUrl(url: string): void {
  const shown = displayUrl(url);
  if (url === '') throw new CorpusSpecError('a git corpus needs a URL: git+<url>[#<branch>][:<subfolder>]', 'bad-url');
  // A leading dash would be read by git as an option.
  if (url.startsWith('-') || CONTROL.test(url))
    throw new CorpusSpecError(
      `git+${shown} is not a repository URL (no spaces or control characters, no leading "-")`,
      'bad-url',
    );
  const info = userInfo(url);
  // An ssh user name (git@host) is no secret; a password, or anything in an http(s) URL's user part (a token), is.
  if (info !== undefined && (info.includes(':') || /^https?:/i.test(url)))
    throw new CorpusSpecError(
      `git+${shown}: the URL carries credentials, which svc-docs never puts on a command line or in a log; ` +
        'store them with a git credential helper (git config credential.helper) or an ssh key, and use the URL without them',
      'credentials',
    );
}

function checkBranch(url: string, branch: string | undefined): string | undefined {
  if (branch === undefined || branch === '') return undefined;
  if (BAD_BRANCH.test(branch))
    throw new CorpusSpecError(`git+${displayUrl(url)}: "${escaped(branch)}" is not a branch name`, 'bad-branch');
  return branch;
}

function checkSubfolder(url: string, subfolder: string | undefined): string | undefined {
  if (subfolder === undefined) return undefined;
  const parts = subfolder.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..' || CONTROL.test(p.replace(/ /g, '')) || p.includes('\\')))
    throw new CorpusSpecError(
      `git+${displayUrl(url)}: subfolder "${escaped(subfolder)}" must be a path inside the repository (no "..")`,
      'bad-subfolder',
    );
  return parts.length === 0 ? undefined : parts.join('/');
}

function escaped(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The repository's own name, read off its URL (`…/argo-cd.git` → `argo-cd`). */
export function repositoryName(url: string): string {
  const last =
    url
      .replace(/[/\\]+$/, '')
      .split(/[/:\\]/)
      .at(-1) ?? '';
  return last.replace(/\.git$/i, '') || 'repository';
}

/** How the spec is written back (`git+url#branch:subfolder`, any user part hidden), for messages. */
export function specText(spec: CorpusSpec): string {
  if (spec.kind === 'folder') return spec.path;
  if (spec.kind === 'web') return spec.url;
  const branch = spec.branch === undefined ? '' : `#${spec.branch}`;
  const sub = spec.subfolder === undefined ? '' : `${branch === '' ? '#' : ''}:${spec.subfolder}`;
  return `${GIT_PREFIX}${displayUrl(spec.url)}${branch}${sub}`;
}

/**
 * What a `--corpus` entry is called and what tells it apart: a folder by its resolved path, a git
 * corpus by its URL, branch and subfolder (never by the folder it happens to be run from).
 */
export function corpusIdentity(entry: string): { name: string; identity: string } {
  return identityOf(parseCorpusSpec(entry));
}

function identityOf(spec: CorpusSpec): { name: string; identity: string } {
  if (spec.kind === 'web') return { name: new URL(spec.url).host, identity: `web\0${spec.url}` };
  return spec.kind === 'folder'
    ? { name: basename(resolve(spec.path)), identity: resolve(spec.path) }
    : { name: repositoryName(spec.url), identity: `git\0${spec.url}\0${spec.branch ?? ''}\0${spec.subfolder ?? ''}` };
}

/**
 * A stable, readable folder name for what a spec names: its name (the folder's, or the
 * repository's) and a short hash of its identity. Where a git corpus is cloned
 * (`<cache>/sources/<key>`).
 */
export function corpusKey(spec: CorpusSpec): string {
  const { name, identity } = identityOf(spec);
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z\d._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'corpus';
  return `${slug}-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}
