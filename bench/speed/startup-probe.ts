import { parseArgs } from 'node:util';
import { z } from 'zod';
import { defaultSearchThreads } from '../../src/settings/defaults.js';
import { DEFAULT_MODEL_ID, ensureDefaultModel } from '../../src/embedding/default-model.js';
import { folderChecksum, loadEmbedder } from '../../src/embedding/embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { startHttpServer } from '../../src/serve/http-server.js';
import { currentBuildDir, readManifest } from '../../src/index/read-index.js';
import { readIndex } from '../../src/index/open-index.js';
import { openEngine } from '../../src/search/engine.js';
import { openPooledEngine } from '../../src/serve/pool-engine.js';
import { SearchPool } from '../../src/serve/pool.js';
import { runIfEntry } from '../lib/probe-entry.js';
import { cacheDirOf } from '../../src/settings/commands.js';

/**
 * Child process of the cold-start benchmark: the steps `svc-docs serve` takes before it is ready,
 * timed one by one in a fresh process (performance.now() counts from process start): Node's
 * start-up and the imports, loading the model, loading the index, listening. Then the parts of
 * the two big steps, measured again on their own: hashing the model files (the index records the
 * model's checksum), and reading + verifying + parsing the index files; and what importing the
 * CLI adds, since `svc-docs serve` starts from it.
 *
 * node bench/speed/startup-probe.js --index DIR --query TEXT
 */

export const startupReportSchema = z.object({
  importsMs: z.number(),
  modelMs: z.number(),
  indexMs: z.number(),
  listenMs: z.number(),
  readyMs: z.number(),
  firstQueryMs: z.number(),
  modelChecksumMs: z.number().optional(),
  indexReadMs: z.number(),
  /** What the CLI imports on top (the indexer, for building on demand; commander). */
  cliImportsMs: z.number(),
  /**
   * What `svc-docs serve` does instead of openEngine (SVC_DOCS_SEARCH_THREADS ≥ 1, the default):
   * start the search workers and load the index into each, measured after the steps above.
   */
  poolMs: z.number().optional(),
  poolThreads: z.number().optional(),
});
export type StartupReport = z.infer<typeof startupReportSchema>;

/** Steps timed apart, after the server is ready: hashing the model, reading the index, the CLI's imports, a search pool. */
async function stepsApart(modelId: string, indexDir: string, embedder: Embedder) {
  let modelChecksumMs: number | undefined;
  if (modelId === DEFAULT_MODEL_ID) {
    const dir = await ensureDefaultModel({ cacheDir: cacheDirOf(process.env) });
    const t = performance.now();
    folderChecksum(dir);
    modelChecksumMs = performance.now() - t;
  }
  let t = performance.now();
  const index = await readIndex(indexDir);
  const indexReadMs = performance.now() - t;
  index.sections.close();
  t = performance.now();
  await import('../../src/cli/program.js');
  const cliImportsMs = performance.now() - t;
  const poolThreads = defaultSearchThreads();
  t = performance.now();
  const pool = new SearchPool(poolThreads);
  const pooled = await openPooledEngine(pool, indexDir, { embedder });
  const poolMs = performance.now() - t;
  await pooled.releaseIndex();
  await pool.close();
  return { modelChecksumMs, indexReadMs, cliImportsMs, poolMs, poolThreads };
}

async function main(): Promise<void> {
  const importsMs = performance.now();
  const { values } = parseArgs({ options: { index: { type: 'string' }, query: { type: 'string' } } });
  const indexDir = values.index!;
  const manifest = await readManifest((await currentBuildDir(indexDir))!);
  let t = performance.now();
  // As the server loads it (pool-engine.ts): table rows read from the model file on demand.
  const embedder = await loadEmbedder({
    model: manifest.model.id,
    tableRows: 'file',
    cacheDir: cacheDirOf(process.env),
  });
  const modelMs = performance.now() - t;
  t = performance.now();
  const engine = await openEngine(indexDir, { embedder });
  const indexMs = performance.now() - t;
  t = performance.now();
  const http = await startHttpServer({ port: 0, host: '127.0.0.1', engine: () => engine, log: () => {} });
  const listenMs = performance.now() - t;
  const readyMs = performance.now();
  t = performance.now();
  await engine.search(values.query!);
  const firstQueryMs = performance.now() - t;
  await http.close();

  const steps = await stepsApart(manifest.model.id, indexDir, embedder);
  await engine.close();
  await embedder.dispose();
  const report: StartupReport = {
    importsMs,
    modelMs,
    indexMs,
    listenMs,
    readyMs,
    firstQueryMs,
    ...steps,
  };
  console.log(JSON.stringify(report));
}

runIfEntry('speed/startup-probe.js', main);
