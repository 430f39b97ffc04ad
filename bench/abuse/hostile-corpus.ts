import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIndex } from '../../indexer/build.js';
import { closeIdleChunker } from '../../indexer/parse/bounded-chunk.js';
import { indexDigest, treeMemory, writeHostileCorpus } from '../lib/hostile-corpus.js';

/**
 * Builds the hostile corpus (bench/lib/hostile-corpus.ts) in this process: one JSON line of
 * documents, skipped, digest, memory. `--ci`: the corpus at CI's size.
 */
async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'hostile-corpus-'));
  const memory = treeMemory();
  const started = Date.now();
  try {
    const summary = await buildIndex({
      corpusDirs: [writeHostileCorpus(root, process.argv.includes('--ci') ? 'ci' : 'full')],
      outDir: join(root, 'index'),
      vectorCacheDir: join(root, 'vectors'),
      log: (line) => console.error(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}`),
    });
    await closeIdleChunker();
    const { documents, skipped, seconds } = summary;
    const digest = indexDigest(summary.buildDir);
    console.log(JSON.stringify({ documents, skipped, digest, seconds: Math.round(seconds), ...memory() }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
