import { type BuildOptions, type BuildSummary, buildIndex } from '../../indexer/build.js';
import { KeptBuild } from '../../indexer/reindex/kept-build.js';
import { skippedSummary } from '../../indexer/load/skipped-files.js';
import { progressReporter } from './progress.js';
import { loadEmbedder, modelChecksum } from '../embedding/embedder.js';
import type { Embedder } from '../embedding/types.js';
import { gitAndWeb, type IndexSettings } from '../settings/commands.js';
import type { Log } from '../observe/log.js';
import { terminalLines } from '../observe/terminal-text.js';
import type { FromReindexer, ToReindexer } from '../serve/reindex-process.js';

/**
 * The CLI's index builds: `svc-docs index` with a progress bar and a full report, and the quiet
 * build `serve` runs first when its index is missing or stale. Both build what the settings say.
 */

const MAX_LISTED_CHANGES = 20;

function changeList({ added, changed, removed }: BuildSummary['changes']): string {
  const lines = [...added.map((d) => `  + ${d}`), ...changed.map((d) => `  ~ ${d}`), ...removed.map((d) => `  - ${d}`)];
  const shown = lines.slice(0, MAX_LISTED_CHANGES);
  if (lines.length > shown.length) shown.push(`  … and ${lines.length - shown.length} more`);
  return shown.map((l) => `\n${l}`).join('');
}

function describeBuild(summary: BuildSummary): string[] {
  const { added, changed, removed } = summary.changes;
  const skipped = skippedSummary(summary.leftOut, summary.unsupported);
  if (summary.unchanged)
    return [
      `the index is up to date (${summary.documents} documents, ${summary.sections} sections; checked in ${summary.seconds.toFixed(1)} s): ${summary.buildDir}`,
      ...(skipped === undefined ? [] : [skipped]),
    ];
  return [
    `indexed ${summary.documents} documents (${summary.documentsParsed} parsed, ${summary.documents - summary.documentsParsed} unchanged), ${summary.sections} sections from ${summary.knowledgeBases.join(', ')} in ${summary.seconds.toFixed(1)} s`,
    ...(skipped === undefined ? [] : [skipped]),
    `section vectors: ${summary.sectionsEmbedded} embedded, ${summary.sectionsReused} reused from cache`,
    `changes since the previous index: ${added.length} added, ${changed.length} changed, ${removed.length} removed` +
      changeList(summary.changes),
    `index written to ${summary.buildDir}`,
  ];
}

function buildOptions(settings: IndexSettings): BuildOptions {
  // corpusDirs, model, allowRemoteModels, cacheDir and vectorCacheDir go as they are, under the same names.
  return { ...settings, outDir: settings.indexDir, limits: settings.fileLimits, sources: gitAndWeb(settings) };
}

/** `svc-docs index`: progress on stderr, the report on stdout. */
export async function buildWithProgress(settings: IndexSettings): Promise<void> {
  const progress = progressReporter(process.stderr);
  const options = { ...buildOptions(settings), onProgress: progress.update, log: (line: string) => progress.log(line) };
  const summary = await buildIndex(options).finally(() => progress.stop());
  for (const line of describeBuild(summary)) console.log(terminalLines(line));
}

/** A build before serving: the indexer's lines and a summary, as entries of the server's log. */
export async function buildQuietly(settings: IndexSettings, log: Log): Promise<void> {
  const summary = await buildIndex({
    ...buildOptions(settings),
    log: (line) => log({ event: 'index-build-output', message: line }),
    // Files left out are the user's to act on: at warn level, as the log's other warnings.
    warn: (line) => log({ level: 'warn', event: 'index-build-output', message: line }),
  });
  log({
    event: 'index-built',
    message: describeBuild(summary)[0],
    documents: summary.documents,
    sections: summary.sections,
    seconds: Math.round(summary.seconds * 100) / 100,
  });
}

/**
 * `svc-docs index --ipc`: the reindexer `serve --watch` keeps (src/serve/reindex-process.ts). One build
 * per request on the IPC channel, answered when written, until the channel closes; the log and
 * each build's report go to stderr and stdout as a one-shot `svc-docs index` prints them. A failed
 * build is answered as failed and the process stays, as the previous index keeps serving.
 */
export async function buildOnRequest(settings: IndexSettings): Promise<void> {
  if (process.send === undefined)
    throw new Error('--ipc is only for the reindexer serve --watch starts: this process has no IPC channel');
  // Once the server has let go, there is no one to answer.
  const answer = (message: FromReindexer) => process.connected && process.send?.(message);
  const log = (line: string) => console.error(terminalLines(line));
  // The model is kept too (loading a sentence model takes seconds), as long as its files are
  // those it was loaded from. The settings carry model and cacheDir under the loader's names.
  const modelOptions = { ...settings, allowRemote: settings.allowRemoteModels, log };
  let kept: Embedder | undefined;
  const embedder = async () => {
    const checksum = await modelChecksum(modelOptions).catch(() => undefined);
    if (kept !== undefined && kept.checksum === checksum) return kept;
    await kept?.dispose();
    kept = undefined;
    kept = await loadEmbedder(modelOptions);
    return kept;
  };
  // So is the last build it wrote, for the next one to start from (indexer/reindex/kept-build.ts).
  const keep = new KeptBuild();
  let queue = Promise.resolve();
  const build = async (id: number) => {
    try {
      const summary = await buildIndex({ ...buildOptions(settings), embedder: await embedder(), log, keep });
      for (const line of describeBuild(summary)) console.log(terminalLines(line));
      answer({ type: 'built', id });
    } catch (error) {
      const message = (error as Error).message;
      console.error(`svc-docs: ${message}`);
      answer({ type: 'failed', id, message });
    }
  };
  await new Promise<void>((resolve) => {
    process.on('message', (message: Partial<ToReindexer> | null) => {
      if (message?.type === 'build' && typeof message.id === 'number') {
        const id = message.id;
        queue = queue.then(() => build(id));
      }
    });
    process.once('disconnect', () => void queue.then(resolve));
  });
  await kept?.dispose();
}
