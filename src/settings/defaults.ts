import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { corpusIdentity } from '../corpus-spec.js';
import { projectRoot } from '../project-root.js';

/**
 * The defaults computed at run time (the catalogue shows them in words). The folders are the
 * svc-docs folder's, whatever the working directory.
 */

/** Generated, reusable artefacts (built models, the vector cache, the indexes) live here, outside git. */
export function defaultCacheDir(): string {
  return join(projectRoot(), '.cache');
}

/** Where git corpora are cloned (indexer/sources/git-source.ts). */
export function defaultSourcesDir(cacheDir: string = defaultCacheDir()): string {
  return join(cacheDir, 'sources');
}

/** The vector cache, in the cache folder unless SVC_DOCS_VECTOR_CACHE_DIR puts it elsewhere. */
export function defaultVectorCacheDir(cacheDir: string = defaultCacheDir()): string {
  return join(cacheDir, 'vectors');
}

export function defaultCorpusDir(): string {
  return join(projectRoot(), 'corpus');
}

/**
 * Each corpus gets its own index folder, named by its folders' names and a hash of their resolved
 * paths (a git corpus: its repository's name, and its URL, branch and subfolder): serving other
 * docs (`serve --corpus ./docs`) builds beside, never over, the index another server of the same
 * checkout serves (which would reload and answer from those docs).
 */
export function defaultIndexDir(corpusDirs: readonly string[], cacheDir: string = defaultCacheDir()): string {
  const corpora = corpusDirs.map(corpusIdentity);
  const hash = createHash('sha256')
    .update(corpora.map((c) => c.identity).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const names = corpora
    .map((c) => c.name)
    .join('+')
    .replace(/[^A-Za-z0-9._+-]+/g, '_')
    .slice(0, 48);
  return join(cacheDir, 'indexes', `${names || 'corpus'}-${hash}`);
}

/**
 * One search worker per core but the one the main thread needs: the main thread does a call's
 * sessions, protocol, JSON and rendering, several times the search's own CPU (bench: 2.5–4 ms of
 * server CPU per call against 0.5 ms in-process on Argo CD), so it bounds throughput on any
 * machine. On 2 cores a second worker only competed with it: over three interleaved pairs of
 * `npx tsx bench/run.ts --parts=http --search-threads=1|2`, 1 worker served 32 sessions at
 * 330–451 calls/s against 300–430 for 2, and the server's RSS after them was 183–184 MB against
 * 212–215 MB (each worker holds 22–35 MB of its own: V8 heap, vocabulary, typo dictionary).
 * In a container, `availableParallelism()` counts its CPU quota rather than the host's cores
 * where libuv finds one (cgroup v2 `cpu.max`, v1 `cpu,cpuacct`: libuv/libuv#4746, in Node 24's
 * libuv 1.52); `SVC_DOCS_SEARCH_THREADS` sets the pool where it does not.
 */
export function defaultSearchThreads(cores: number = availableParallelism()): number {
  return Math.max(1, cores - 1);
}
