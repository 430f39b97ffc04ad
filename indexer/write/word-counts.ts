import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ColumnReader, magic, numberColumn, stringColumn } from '../../src/index/columns.js';
import { INDEX_FILES } from '../../src/index/format.js';
import type { Manifest } from '../../src/index/manifest.js';

/**
 * word-counts.bin: how often each plain word occurs in the corpus (section-text.ts), words
 * sorted, as columns (columns.ts). Only the indexer reads it: a reindex adjusts these counts by
 * the sections that changed instead of scanning every section's text for the expansion vocabulary.
 */

const MAGIC = 'SVCWRD03';

export function* wordCountsPieces(counts: ReadonlyMap<string, number>): Generator<Uint8Array> {
  const words = [...counts.keys()].sort();
  yield* magic(MAGIC);
  yield* stringColumn(words.length, (w) => words[w]!);
  yield* numberColumn(Uint32Array.from(words, (w) => counts.get(w)!));
}

/** The previous build's counts, or undefined when the file is missing, damaged or not what its manifest says. */
export async function readWordCounts(buildDir: string, manifest: Manifest): Promise<Map<string, number> | undefined> {
  try {
    const bytes = await readFile(join(buildDir, INDEX_FILES.wordCounts));
    if (createHash('sha256').update(bytes).digest('hex') !== manifest.files[INDEX_FILES.wordCounts]) return undefined;
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const r = new ColumnReader(buffer);
    r.magic(MAGIC);
    const words = r.strings();
    const counts = r.uint32(words.count);
    r.end();
    const out = new Map<string, number>();
    for (let w = 0; w < words.count; w++) out.set(words.get(w), counts[w]!);
    return out;
  } catch {
    return undefined;
  }
}
