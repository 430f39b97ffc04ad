import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BoundedChunker } from '../../indexer/parse/bounded-chunk.js';
import { buildIndex } from '../../indexer/build.js';
import { DEFAULT_FILE_LIMITS } from '../../indexer/parse/chunk-corpus.js';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { HOSTILE_MARKDOWN } from '../lib/hostile-corpus.js';

/**
 * How long hostile Markdown costs the indexer: each input's parse on the worker, stopped at the
 * time limit, and a whole build of a small corpus holding all of them (with the default limits).
 *   npx tsx bench/abuse/hostile-markdown.ts [--limit-seconds 20]
 */

const INPUTS = HOSTILE_MARKDOWN;

const { values } = parseArgs({ options: { 'limit-seconds': { type: 'string' } } });
const limitMs = Number(values['limit-seconds'] ?? DEFAULT_FILE_LIMITS.parseTimeoutMs / 1000) * 1000;

const chunker = new BoundedChunker(limitMs);
console.log(
  `parse limit ${limitMs / 1000} s, size limit ${DEFAULT_FILE_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes`,
);
console.log('| input | bytes | outcome | seconds |\n|---|---|---|---|');
for (const [name, make] of Object.entries(INPUTS)) {
  const source = make();
  if (source.length > DEFAULT_FILE_LIMITS.maxFileBytes) {
    console.log(`| ${name} | ${source.length.toLocaleString('en-US')} | skipped: over the size limit (not read) | 0 |`);
    continue;
  }
  const started = performance.now();
  const outcome = await chunker.chunk({ path: 'hostile.md', source }, DEFAULT_CHUNK_OPTIONS);
  const what = outcome.ok
    ? `${outcome.doc.sections.length} sections`
    : outcome.reason === 'timeout'
      ? 'stopped at the limit'
      : `parser error (${outcome.error})`;
  console.log(
    `| ${name} | ${source.length.toLocaleString('en-US')} | ${what} | ${((performance.now() - started) / 1000).toFixed(1)} |`,
  );
}
await chunker.close();

const root = mkdtempSync(join(tmpdir(), 'hostile-bench-'));
try {
  const corpus = join(root, 'corpus');
  const files: Record<string, string> = { 'kb/good.md': '# Good\n\nAn ordinary page.\n' };
  for (const [name, make] of Object.entries(INPUTS)) files[`kb/${name}`] = make();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(corpus, path)), { recursive: true });
    writeFileSync(join(corpus, path), text);
  }
  const summary = await buildIndex({
    corpusDirs: [corpus],
    outDir: join(root, 'index'),
    vectorCacheDir: join(root, 'vectors'),
    limits: { parseTimeoutMs: limitMs },
    log: (l) => console.log(`  ${l}`),
  });
  console.log(
    `whole build of ${Object.keys(files).length} files: ${summary.documents} documents, ${summary.sections} sections, ${summary.plainText.length} as plain text (a failed parse), ${summary.skipped.length} skipped, ${summary.seconds.toFixed(1)} s`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
