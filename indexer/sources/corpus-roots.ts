import { dirname, resolve } from 'node:path';
import { parseCorpusSpec, repositoryName } from '../../src/corpus-spec.js';
import { SETTINGS } from '../../src/settings/catalogue.js';
import { defaultSourcesDir } from '../../src/settings/defaults.js';
import type { CorpusRoot } from '../load/knowledge-base.js';
import { DEFAULT_WEB_LIMITS, type WebLimits } from '../../src/settings/web.js';
import { syncGitSource } from './git-source.js';
import type { GitLimits } from './git-bounds.js';

/**
 * The load step's first move: each `--corpus` entry as a folder to read. A folder is itself; a
 * `git+…` repository is fetched into the cache (git-source.ts) and read from its checked-out
 * tree, named after the repository unless the site or a kb.json names it.
 */

export interface SourceOptions {
  /** The cache folder: git corpora are cloned to its `sources` folder. */
  cacheDir?: string;
  /** Where git corpora are cloned, if not there. */
  sourcesDir?: string;
  /** Each git command's time limit; default SVC_DOCS_GIT_TIMEOUT_SECONDS's. */
  gitTimeoutMs?: number;
  /** A git corpus's file limit and size cap (git-bounds.ts); default the settings' defaults. */
  gitLimits?: GitLimits;
  /** A website corpus's crawl bounds; default the settings' defaults. */
  webLimits?: WebLimits;
  /** False: use each git corpus as last fetched, without asking its remote (serve's check of its index). Default true. */
  fetch?: boolean;
  log?: (line: string) => void;
}

const DEFAULT_GIT_TIMEOUT_MS = SETTINGS.gitTimeoutSeconds.default * 1000;

/** The folders from `treeRoot` down to `dir`, nearest first: where a git corpus's site configuration may be. */
function foldersUpTo(dir: string, treeRoot: string): string[] {
  const out = [dir];
  for (let d = dir; d !== treeRoot && dirname(d) !== d; d = dirname(d)) out.push(dirname(d));
  return out;
}

/** One clone at a time: two fetches at once only compete for the same link. */
export async function corpusRoots(entries: readonly string[], options: SourceOptions = {}): Promise<CorpusRoot[]> {
  const roots: CorpusRoot[] = [];
  // What every remote source shares: where its copy goes, whether it may fetch, where it logs.
  const shared = {
    sourcesDir: options.sourcesDir ?? defaultSourcesDir(options.cacheDir),
    fetch: options.fetch ?? true,
    log: options.log ?? (() => {}),
  };
  for (const entry of entries) {
    const spec = parseCorpusSpec(entry);
    if (spec.kind === 'folder') {
      roots.push({ dir: resolve(spec.path) });
      continue;
    }
    if (spec.kind === 'web') {
      // The crawler (and its HTML selector engine) is loaded only for a website corpus.
      const { syncWebSource } = await import('./web-source.js');
      const site = await syncWebSource(spec, { ...shared, limits: options.webLimits ?? DEFAULT_WEB_LIMITS });
      roots.push({
        dir: site.dir,
        name: new URL(spec.url).host,
        siteDirs: [site.dir],
        scope: site.home,
        pageUrls: site.pageUrls,
      });
      continue;
    }
    const source = await syncGitSource(spec, {
      ...shared,
      timeoutMs: options.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
      limits: options.gitLimits,
    });
    roots.push({
      dir: source.dir,
      name: repositoryName(spec.url),
      siteDirs: foldersUpTo(source.dir, source.treeRoot),
      scope: source.home,
    });
  }
  return roots;
}
