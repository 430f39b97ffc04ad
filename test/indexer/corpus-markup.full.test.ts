import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_OPTIONS } from '../../indexer/chunk/chunk.js';
import { chunkFile } from '../../indexer/parse/chunk-file.js';
import { loadCorpus } from '../../indexer/load/load-corpus.js';
import { projectRoot } from '../../src/project-root.js';
import { type LeakKind, lineLeaks, textLeaks } from './markup-leaks.js';

/**
 * Every section of every real corpus, chunked as the indexer chunks it (no embedding): no
 * attribute block, macro, shortcode, include, import line, container marker or raw HTML tag
 * outside code in any title, heading path or section text. The corpora sit in ../shared/corpora
 * beside the checkout; one that is missing is skipped with a line saying so, except under CI,
 * which always has them.
 */

const SHARED = join(projectRoot(), '..', 'shared', 'corpora');
const CORPORA = [
  ...['argocd', 'vitest', 'mkdocs-material', 'trpc', 'hugo'].map((name) => ({ name, dir: join(SHARED, name) })),
  { name: 'bundled', dir: join(projectRoot(), 'corpus') },
];

/** The leaks of one corpus: one line per section that has any. */
function corpusLeaks(dir: string): string[] {
  const found: string[] = [];
  for (const doc of loadCorpus([dir])) {
    const page = chunkFile({ path: doc.path, source: doc.source }, DEFAULT_CHUNK_OPTIONS);
    const titleLeaks = page.title === undefined ? [] : lineLeaks(page.title, { title: true });
    for (const section of page.sections) {
      const kinds = new Set<LeakKind>([
        ...titleLeaks,
        ...section.headings.flatMap((h) => lineLeaks(h, { title: false })),
        ...textLeaks(section.text),
      ]);
      if (kinds.size > 0)
        found.push(`${doc.kb}/${doc.path} > ${section.headings.join(' > ')}: ${[...kinds].join(', ')}`);
    }
  }
  return found;
}

describe('dialect markup in the real corpora', () => {
  for (const { name, dir } of CORPORA) {
    const present = existsSync(dir);
    if (!present) {
      if (process.env.CI === 'true') throw new Error(`${dir} is missing: CI has ../shared/corpora beside the checkout`);
      console.log(`corpus-markup: skipping ${name}, ${dir} is not there`);
    }
    it.skipIf(!present)(`leaves none in ${name}`, { timeout: 120_000 }, () => {
      expect(corpusLeaks(dir)).toEqual([]);
    });
  }
});
