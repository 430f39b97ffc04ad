import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { indexSettings } from '../../src/settings/commands.js';
import { KeptReindexer } from '../../src/serve/reindex-process.js';
import { compileOnce, memoryOf, runProbe, timedRun } from '../lib/child-process.js';
import { runIfEntry } from '../lib/probe-entry.js';
import { cacheDirOf } from '../../src/settings/commands.js';

/**
 * Full build speed, and a one-file edit reindexed incrementally as a ratio to the full build:
 * in the benchmark's process, and as a one-shot `svc-docs index` in a process of its own.
 */

export interface IndexingReport {
  documents: number;
  sections: number;
  fullBuildSeconds: number;
  sectionsPerSecond: number;
  /**
   * The edit reindexed in the benchmark's process right after the builds before it: it reuses
   * their parser worker (bounded-chunk.ts) and code the JIT has already compiled.
   */
  incrementalSeconds: number;
  incrementalSectionsEmbedded: number;
  /** Full build time over incremental reindex time (how many times faster the reindex is). */
  fullOverIncremental: number;
  /**
   * The same edit again in the benchmark's process with no parser worker kept (as after a minute
   * idle): a change set this small is parsed on the calling thread (chunk-corpus.ts) instead of
   * starting a worker; code that ran before in this process is compiled already.
   */
  incrementalNoWorkerSeconds: number;
  /**
   * The same edit once more, reindexed by a new process running the compiled indexer, as a
   * one-shot `svc-docs index` does: nothing loaded or compiled before, no parser worker. Neither
   * figure counts process start, imports or model load: the embedder is loaded before the timed
   * build, as in the benchmark's process.
   */
  oneShotSeconds: number;
  /** Size of the page edited above: the corpus's largest, where parsing costs the most. */
  editedPageBytes: number;
  /** The same one-shot for an edit of a median-sized page: what a typical edit costs. */
  oneShotMedianPage: { bytes: number; seconds: number };
  noChangeSeconds: number;
  /**
   * `serve --watch`'s reindex (src/serve/reindex-process.ts): the compiled `svc-docs index --ipc`, kept
   * between edits, asked to rebuild; wall time from request to answer, everything included (the
   * model is kept between builds, checked for changes before each). `firstSeconds`: the first
   * edit after the server started, which starts the process; `nextSeconds`: the median of three
   * further edits of the largest page; `medianPageSeconds`: the median of three edits of the
   * median-sized page after those; `keptRssMB`: the kept process's RSS after them, what it
   * holds while it waits for the next edit.
   */
  watch: { firstSeconds: number; nextSeconds: number; medianPageSeconds: number; keptRssMB: number };
  /**
   * What a user waits for: the compiled `svc-docs index` run in a new process, from spawn to exit
   * (Node's start, imports, model load, the build, exit; its compile cache warmed by one run
   * before), median of three: after an edit of the largest page, of the median-sized page, and
   * with nothing changed; and once, a full build into a new index with a new (cold) vector cache.
   */
  cli: { fullBuildSeconds: number; largestPageSeconds: number; medianPageSeconds: number; noChangeSeconds: number };
}

/** The corpus's Markdown files, smallest first. */
function markdownBySize(dir: string): { path: string; size: number }[] {
  const files: { path: string; size: number }[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) files.push({ path: p, size: statSync(p).size });
    }
  };
  walk(dir);
  return files.sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1));
}

const oneShotSchema = z.object({ seconds: z.number(), documentsParsed: z.number(), sectionsEmbedded: z.number() });

/** A private copy of the corpus in a fresh `work` folder, so the benchmark can edit its pages. */
function copyCorpus(corpusDir: string, work: string): { corpus: string; outDir: string; vectorCacheDir: string } {
  rmSync(work, { recursive: true, force: true });
  // Copied under its own folder name so the knowledge base keeps its name.
  const corpus = join(work, 'corpus');
  cpSync(corpusDir, join(corpus, basename(corpusDir)), { recursive: true });
  return { corpus, outDir: join(work, 'index'), vectorCacheDir: join(work, 'vectors') };
}

export async function measureIndexing(corpusDir: string, work: string, embedder: Embedder): Promise<IndexingReport> {
  const { corpus, outDir, vectorCacheDir } = copyCorpus(corpusDir, work);
  const full = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  const unchanged = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  const pages = markdownBySize(corpus);
  const file = pages.at(-1)!.path;
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/\n## /, '\n## Edited section\n\nA new paragraph about benchmark edits.\n\n## '),
  );
  const incremental = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  const edit = (from: string, to: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  edit('A new paragraph about benchmark edits.', 'Edited again.');
  await closeIdleChunker();
  const noWorker = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
  edit('Edited again.', 'Edited once more.');
  const oneShot = await oneShotReindex(corpus, outDir, vectorCacheDir);
  const median = pages[Math.floor(pages.length / 2)]!;
  const text = readFileSync(median.path, 'utf8');
  writeFileSync(median.path, `${text}\n\nA new paragraph about benchmark edits.\n`);
  const oneShotMedian = await oneShotReindex(corpus, outDir, vectorCacheDir);
  const editMedian = (n: number) => {
    const before = n === 0 ? 'A new paragraph about benchmark edits.' : `Median edit ${n - 1}.`;
    writeFileSync(median.path, readFileSync(median.path, 'utf8').replace(before, `Median edit ${n}.`));
  };
  const watch = await keptReindexes({
    corpus,
    outDir,
    vectorCacheDir,
    edit: (n) => edit(n === 0 ? 'Edited once more.' : `Edit ${n - 1}.`, `Edit ${n}.`),
    editMedian,
  });
  // Numbered on from the kept reindexer's edits: its last were `Edit 3.` and `Median edit 2.`.
  const cli = await cliReindexes({
    corpus,
    outDir,
    vectorCacheDir,
    edit: (n) => edit(`Edit ${n + 3}.`, `Edit ${n + 4}.`),
    editMedian: (n) => editMedian(n + 3),
  });
  return {
    documents: full.documents,
    sections: full.sections,
    fullBuildSeconds: full.seconds,
    sectionsPerSecond: full.sections / full.seconds,
    incrementalSeconds: incremental.seconds,
    incrementalSectionsEmbedded: incremental.sectionsEmbedded,
    fullOverIncremental: full.seconds / incremental.seconds,
    incrementalNoWorkerSeconds: noWorker.seconds,
    oneShotSeconds: oneShot.seconds,
    editedPageBytes: pages.at(-1)!.size,
    oneShotMedianPage: { bytes: median.size, seconds: oneShotMedian.seconds },
    noChangeSeconds: unchanged.seconds,
    watch,
    cli,
  };
}

/** The benchmark's copy of the corpus, its index and vector cache, and its n-th edit of the largest and the median-sized page. */
interface EditedCorpus {
  corpus: string;
  outDir: string;
  vectorCacheDir: string;
  edit: (n: number) => void;
  editMedian: (n: number) => void;
}

/**
 * The compiled `svc-docs index`, spawned and timed to its exit: three edits of each page (`edit(n)`,
 * `editMedian(n)` make the n-th), three runs with nothing changed, and a full build from nothing.
 */
async function cliReindexes({
  corpus,
  outDir,
  vectorCacheDir,
  edit,
  editMedian,
}: EditedCorpus): Promise<IndexingReport['cli']> {
  const script = join(await compileOnce((line) => console.error(`[bench] ${line}`)), 'src', 'cli.js');
  const index = (out = outDir, vectors = vectorCacheDir) =>
    timedRun(script, ['index', '--corpus', corpus, '--out', out, '--vector-cache', vectors]);
  const middle = (times: number[]) => times.sort((a, b) => a - b)[1]!;
  const afterEdit = async (change: (n: number) => void) => {
    const times: number[] = [];
    for (let n = 0; n < 3; n++) {
      change(n);
      const { seconds, stdout } = await index();
      if (!stdout.includes('(1 parsed,')) throw new Error(`svc-docs index parsed more than the file edited: ${stdout}`);
      times.push(seconds);
    }
    return middle(times);
  };
  const unchanged = async () => {
    const { seconds, stdout } = await index();
    if (!stdout.startsWith('the index is up to date'))
      throw new Error(`svc-docs index rebuilt an unchanged corpus: ${stdout}`);
    return seconds;
  };
  // Fills Node's compile cache, as any run before a user's would have.
  await unchanged();
  const largestPageSeconds = await afterEdit(edit);
  const medianPageSeconds = await afterEdit(editMedian);
  const noChangeSeconds = middle([await unchanged(), await unchanged(), await unchanged()]);
  const fresh = join(dirname(outDir), 'cli-full');
  const full = await index(join(fresh, 'index'), join(fresh, 'vectors'));
  if (!full.stdout.includes(`(${markdownBySize(corpus).length} parsed, 0 unchanged)`))
    throw new Error(`svc-docs index did not build every page: ${full.stdout}`);
  return { fullBuildSeconds: full.seconds, largestPageSeconds, medianPageSeconds, noChangeSeconds };
}

/**
 * `serve --watch`'s kept reindexer running the compiled CLI: the first edit, then three more of the
 * largest page (`edit(n)` makes the n-th), then three of the median-sized page (`editMedian(n)`).
 */
async function keptReindexes({
  corpus,
  outDir,
  vectorCacheDir,
  edit,
  editMedian,
}: EditedCorpus): Promise<IndexingReport['watch']> {
  const log = (line: string) => console.error(`[bench] ${line}`);
  const script = join(await compileOnce(log), 'src', 'cli.js');
  const settings = indexSettings({ corpus: [corpus], out: outDir, vectorCache: vectorCacheDir }, process.env);
  let report = '';
  const reindexer = new KeptReindexer(settings, (line) => line.startsWith('indexed ') && (report = line), {
    script,
    execArgv: [],
  });
  const timed = async (n: number, change = edit) => {
    change(n);
    const start = performance.now();
    await reindexer.rebuild();
    const seconds = (performance.now() - start) / 1000;
    if (!report.includes('(1 parsed,'))
      throw new Error(`the kept reindexer parsed more than the file edited: ${report}`);
    return seconds;
  };
  try {
    const firstSeconds = await timed(0);
    const middle = (times: number[]) => times.sort((a, b) => a - b)[1]!;
    const nextSeconds = middle([await timed(1), await timed(2), await timed(3)]);
    const medianPageSeconds = middle([
      await timed(0, editMedian),
      await timed(1, editMedian),
      await timed(2, editMedian),
    ]);
    return { firstSeconds, nextSeconds, medianPageSeconds, keptRssMB: memoryOf(reindexer.pid!).rssMB };
  } finally {
    await reindexer.close();
  }
}

/** A one-file edit reindexed by a new process running the compiled indexer (the probe below). */
async function oneShotReindex(corpus: string, outDir: string, vectorCacheDir: string): Promise<{ seconds: number }> {
  const oneShot = await runProbe('speed/indexing', [corpus, outDir, vectorCacheDir], oneShotSchema, {
    log: (line) => console.error(`[bench] ${line}`),
  });
  if (oneShot.documentsParsed !== 1)
    throw new Error(`the one-shot reindex parsed ${oneShot.documentsParsed} files, not the one edited`);
  return oneShot;
}

/** The one-shot reindex, in the child process: the default model (the parent's, so its vector cache applies), then one timed build. */
runIfEntry('speed/indexing.js', async () => {
  const { positionals } = parseArgs({ allowPositionals: true });
  const [corpus, outDir, vectorCacheDir] = positionals;
  if (corpus === undefined || outDir === undefined || vectorCacheDir === undefined)
    throw new Error('usage: indexing.js <corpus> <index> <vector cache>');
  const embedder = await loadEmbedder({ cacheDir: cacheDirOf(process.env) });
  try {
    const summary = await buildIndex({ corpusDirs: [corpus], outDir, vectorCacheDir, embedder });
    const { seconds, documentsParsed, sectionsEmbedded } = summary;
    console.log(JSON.stringify({ seconds, documentsParsed, sectionsEmbedded }));
  } finally {
    await embedder.dispose();
  }
});
