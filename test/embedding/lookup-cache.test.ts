import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDefaultModel } from '../../src/embedding/default-model.js';
import { folderChecksum } from '../../src/embedding/embedder.js';
import { LOOKUP_CACHE_FILE, readCompiledLookup, writeCompiledLookup } from '../../src/embedding/lookup-cache.js';
import { loadLookupEmbedder } from '../../src/embedding/lookup-embedder.js';
import type { Embedder } from '../../src/embedding/types.js';
import { UnigramTokenizer } from '../../src/embedding/unigram-tokenizer.js';
import { projectRoot } from '../../src/project-root.js';
import { buildTinyModel, scratchDir } from './tiny-model.js';

/**
 * The compiled form of a static model (src/embedding/lookup-cache.ts) and the table read from the
 * file on demand must give what the model's own files give: the same token ids and the same
 * vectors bit for bit; and a compiled form that does not belong to the model's files is ignored.
 */

const corpusText = (): string[] =>
  readdirSync(join(projectRoot(), 'corpus'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => readFileSync(join(projectRoot(), 'corpus', f), 'utf8').split(/\n{2,}/))
    .slice(0, 400);

const TEXTS = ['', 'sync waves and hooks', '[CLS]x[SEP] ☃ café 中文 😀', 'entityeventsequence', ...corpusText()];

async function vectors(embedder: Embedder): Promise<number[][]> {
  const out = (await embedder.embed(TEXTS)).map((v) => [...v]);
  await embedder.dispose();
  return out;
}

const json = (dir: string, file: string): unknown => JSON.parse(readFileSync(join(dir, file), 'utf8'));

describe('the compiled static model', () => {
  it('gives the token ids of the tokenizer parsed from tokenizer.json', async () => {
    const dir = await ensureDefaultModel();
    const parsed = UnigramTokenizer.fromJson(json(dir, 'tokenizer.json'), json(dir, 'tokenizer_config.json'), 2048)!;
    const scratch = scratchDir('compiled-ids');
    writeCompiledLookup(scratch, 'sum', { tokenizer: parsed.parts, table: { offset: 0, rows: 1, dimensions: 1 } });
    const compiled = readCompiledLookup(scratch, 'sum');
    expect(compiled?.table).toEqual({ offset: 0, rows: 1, dimensions: 1 });
    const restored = UnigramTokenizer.fromParts(compiled!.tokenizer);
    for (const text of TEXTS) expect(restored.encode(text), text.slice(0, 60)).toEqual(parsed.encode(text));
  });

  it('is written on the first load and gives the same vectors from then on, in memory or read from the file', async () => {
    const dir = buildTinyModel(scratchDir('compiled-tiny'));
    const sum = folderChecksum(dir);
    expect(existsSync(join(dir, LOOKUP_CACHE_FILE))).toBe(false);
    const fromFiles = await vectors(loadLookupEmbedder(dir, 'tiny', sum)!);
    expect(readCompiledLookup(dir, sum)).toBeDefined();
    expect(folderChecksum(dir)).toBe(sum);
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum)!)).toEqual(fromFiles);
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum, 'file')!)).toEqual(fromFiles);
  });

  it('reads the default model rows from its file exactly as from memory', async () => {
    const dir = await ensureDefaultModel();
    const sum = folderChecksum(dir);
    expect(await vectors(loadLookupEmbedder(dir, 'default', sum, 'file')!)).toEqual(
      await vectors(loadLookupEmbedder(dir, 'default', sum, 'memory')!),
    );
  });

  it('is ignored when it belongs to other model files, or is cut short, and then compiled again', async () => {
    const dir = buildTinyModel(scratchDir('compiled-stale'));
    const sum = folderChecksum(dir);
    const expected = await vectors(loadLookupEmbedder(dir, 'tiny', sum)!);
    expect(readCompiledLookup(dir, 'another model')).toBeUndefined();
    // Compiled for a checksum the files do not have: a load must not take it.
    const forged = readCompiledLookup(dir, sum)!;
    forged.tokenizer.pieces.ids.fill(1);
    writeCompiledLookup(dir, 'another model', forged);
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum)!)).toEqual(expected);
    expect(readCompiledLookup(dir, sum)).toBeDefined();
    truncateSync(join(dir, LOOKUP_CACHE_FILE), 1000);
    expect(readCompiledLookup(dir, sum)).toBeUndefined();
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum)!)).toEqual(expected);
    // Hash slots of another size than its pieces need: refused, compiled again.
    const badSlots = readCompiledLookup(dir, sum)!;
    badSlots.tokenizer.pieces.slots = new Int32Array(16);
    writeCompiledLookup(dir, sum, badSlots);
    expect(readCompiledLookup(dir, sum)).toBeUndefined();
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum)!)).toEqual(expected);
    expect(readCompiledLookup(dir, sum)).toBeDefined();
    writeFileSync(join(dir, LOOKUP_CACHE_FILE), 'not a compiled model');
    expect(await vectors(loadLookupEmbedder(dir, 'tiny', sum)!)).toEqual(expected);
    expect(readCompiledLookup(dir, sum)).toBeDefined();
  });
});
