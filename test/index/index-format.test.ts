import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeIndex, type ManifestDraft } from '../../indexer/write/write-index.js';
import { buildLexicalData } from '../../src/index/build-lexical.js';
import { PIECE_BYTES } from '../../src/index/columns.js';
import { IndexError, type StoredDocument, type StoredSection } from '../../src/index/format.js';
import { decodePostings, postingsPieces } from '../../src/index/postings-file.js';
import {
  currentBuildDir,
  openPiecedFile,
  readBuildLexical,
  readBuildSections,
  readManifest,
} from '../../src/index/read-index.js';
import { SectionStore } from '../../src/index/section-store.js';
import { profileCorpus } from '../../src/index/corpus-profile.js';
import { readIndex } from '../../src/index/open-index.js';
import { decodeSections, openSectionsFile, sectionsPieces } from '../../src/index/sections-file.js';
import { tokenize } from '../../src/index/tokenize.js';
import { HnswVectorIndex } from '../../src/index/vector-index.js';
import { fixtureIndex, tempDir } from '../helpers/index-fixture.js';
import { byteSource, fileBuffer, resign } from './resign.js';

/** sections.bin and postings.bin: what is written is what is read, damage is refused, and nothing is read as one big string. */

const documents: StoredDocument[] = [
  { kb: 'kb', path: 'a.md', title: 'Ünïcode 🚀 title', hash: 'h1', firstSection: 0, sectionCount: 2 },
  {
    kb: 'other',
    path: 'dir/b.md',
    title: '',
    hash: 'h2',
    firstSection: 2,
    sectionCount: 1,
    url: 'https://docs.example.org/dir/b/',
  },
];
const sections: StoredSection[] = [
  { doc: 0, headings: ['Ünïcode 🚀 title'], text: '# Ünïcode 🚀 title\nintro with a café\n', role: 'content' },
  { doc: 0, headings: ['Ünïcode 🚀 title', 'Deep'], text: '', role: 'empty' },
  { doc: 1, headings: [], text: 'no heading at all, odd length', role: 'navigation' },
];

function bytes(pieces: Iterable<Uint8Array>): ArrayBuffer {
  const data = Buffer.concat([...pieces]);
  const buffer = new ArrayBuffer(data.length);
  new Uint8Array(buffer).set(data);
  return buffer;
}

const source = (pieces: Iterable<Uint8Array>) => byteSource(Buffer.concat([...pieces]));

const lexical = () =>
  buildLexicalData(
    sections.map((s) => ({
      title: tokenize(documents[s.doc]!.title),
      headings: tokenize(s.headings.join('\n')),
      body: tokenize(s.text),
    })),
  );

describe('the binary tables', () => {
  it('read back exactly what was written', async () => {
    expect(await decodeSections(source(sectionsPieces(documents, sections)))).toEqual({ documents, sections });
    const data = lexical();
    expect(await decodePostings(source(postingsPieces(data)))).toEqual(data);
  });

  it('refuses bytes cut short or with something after them', async () => {
    const whole = Buffer.from(bytes(sectionsPieces(documents, sections)));
    const cut = whole.subarray(0, whole.length - 8);
    await expect(decodeSections(source([cut]))).rejects.toThrow(/truncated/);
    await expect(decodeSections(source([whole, Buffer.alloc(4)]))).rejects.toThrow(/4 bytes follow its last column/);
    await expect(decodePostings(source([whole]))).rejects.toThrow(/does not start with SVCPST02/);
  });
});

describe('an index written then read', () => {
  it('equals what was written: documents, sections, postings, vectors and the HNSW graph', async () => {
    const base = await readIndex(await fixtureIndex({ 'kb/a.md': '# A\nalpha\n' }));
    const { formatVersion: _v, files: _f, ...draft } = base.manifest;
    const dims = base.vectors.dims;
    const vectors = { dims, data: Float32Array.from({ length: sections.length * dims }, (_, i) => Math.sin(i + 1)) };
    const content = { documents, sections, vectors, lexical: lexical() };
    const dir = tempDir('round-trip');
    const manifestDraft: ManifestDraft = { ...draft, sections: sections.length };
    await writeIndex(dir, manifestDraft, content, HnswVectorIndex.build(vectors, draft.hnsw));
    const read = await readIndex(dir);
    expect({
      documents: read.documents,
      sections: read.sections.slice(),
      vectors: read.vectors,
      lexical: await readBuildLexical(read.buildDir, read.manifest),
    }).toEqual(content);
    expect(Array.from(read.parents)).toEqual([-1, 0, -1]);
    expect(read.profiles).toEqual(profileCorpus(content));
    expect(read.hnsw?.labels().sort()).toEqual([0, 1, 2]);
  });
});

describe('a damaged table file', () => {
  const build = async () => (await currentBuildDir(await fixtureIndex({ 'kb/a.md': '# A\nalpha\n## B\nbeta\n' })))!;

  for (const file of ['sections.bin', 'postings.bin']) {
    it(`refuses a flipped byte in ${file}, naming it`, async () => {
      const b = await build();
      const data = readFileSync(join(b, file));
      data[Math.floor(data.length / 2)]! ^= 0x01;
      writeFileSync(join(b, file), data);
      // The fixture's file is one piece: whatever load reads of it is checked against that piece.
      await expect(readIndex(join(b, '..'))).rejects.toThrow(
        new RegExp(
          `${file.replace('.', '\\.')} is corrupt \\(bytes 0–\\d+ do not match their checksum\\): run 'svc-docs index'`,
        ),
      );
    });

    it(`refuses a truncated ${file}, naming it, also under a valid checksum`, async () => {
      const b = await build();
      truncateSync(join(b, file), 40);
      await expect(readIndex(join(b, '..'))).rejects.toThrow(
        new RegExp(`${file.replace('.', '\\.')} is corrupt \\(bytes 0–40 do not match their checksum\\)`),
      );
      resign(b, file, readFileSync(join(b, file)));
      await expect(readIndex(join(b, '..'))).rejects.toThrow(IndexError);
      await expect(readIndex(join(b, '..'))).rejects.toThrow(
        new RegExp(
          `${file.replace('.', '\\.')} is malformed \\(it ends \\d+ bytes early \\(truncated\\)\\): run 'svc-docs index' to rebuild it$`,
        ),
      );
    });
  }
});

describe('a damaged piece of text a server has not read yet', () => {
  const count = 64;
  /** A build whose sections.bin holds `count` sections of 8 KB text; `damage` flips a byte in the last one's. */
  async function bigStore(damage: boolean): Promise<{ store: SectionStore; path: string; data: Buffer }> {
    const b = (await currentBuildDir(await fixtureIndex({ 'kb/a.md': '# A\nalpha\n' })))!;
    const big: StoredSection[] = Array.from({ length: count }, (_, i) => ({
      doc: 0,
      headings: [`H${i}`],
      text: `${i} `.padEnd(8192, 'x'),
      role: 'content',
    }));
    const docs: StoredDocument[] = [
      { kb: 'kb', path: 'a.md', title: 'A', hash: 'h', firstSection: 0, sectionCount: count },
    ];
    const data = Buffer.from(bytes(sectionsPieces(docs, big)));
    resign(b, 'sections.bin', data);
    // The last section's text, in a piece of its own far from the tables read at load.
    if (damage) data[data.length - 100]! ^= 0x01;
    const path = join(b, 'sections.bin');
    writeFileSync(path, data);
    // What open-index.ts does with sections.bin.
    const file = await openPiecedFile(b, await readManifest(b), 'sections.bin');
    const { doc, roles, headingStart, headings, text } = await openSectionsFile(file);
    return { store: new SectionStore({ file: file.parts, doc, roles, headingStart, headings, text }), path, data };
  }

  it('is refused when a result reads it, naming the file; the rest of the index serves', async () => {
    const { store } = await bigStore(true);
    expect(store.slice(0, 2).map((s) => s.headings)).toEqual([['H0'], ['H1']]);
    expect(() => store.slice(count - 1)).toThrow(IndexError);
    expect(() => store.slice(count - 1)).toThrow(
      /sections\.bin is corrupt \(bytes \d+–\d+ do not match their checksum\): run 'svc-docs index' to rebuild it$/,
    );
    store.close();
  });

  it('is hashed once: a piece that matched is not checked again on later reads (a build never changes in place)', async () => {
    const { store, path, data } = await bigStore(false);
    expect(store.slice(count - 1)[0]!.text.startsWith(`${count - 1} `)).toBe(true);
    // Changed on disk after the read that verified it: served as read, not hashed again...
    data[data.length - 100]! ^= 0x01;
    writeFileSync(path, data);
    expect(() => store.slice(count - 1)).not.toThrow();
    // ...while a piece never read before is still checked (in the section before the last, beyond the pieces the first read verified).
    data[data.length - 14000]! ^= 0x01;
    writeFileSync(path, data);
    expect(() => store.slice(count - 2, count - 1)).toThrow(/sections\.bin is corrupt/);
    store.close();
  });
});

describe('an index of the previous format', () => {
  it('is refused with the one-line rebuild message', async () => {
    const b = (await currentBuildDir(await fixtureIndex({ 'kb/a.md': '# A\nalpha\n' })))!;
    const path = join(b, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { formatVersion: number };
    writeFileSync(path, JSON.stringify({ ...manifest, formatVersion: 2 }));
    await expect(readIndex(join(b, '..'))).rejects.toThrow(IndexError);
    await expect(readIndex(join(b, '..'))).rejects.toThrow(
      /manifest\.json has index format 2 but this svc-docs reads format 6: run 'svc-docs index' to rebuild it$/,
    );
  });
});

describe('reading a table larger than one read', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes no string longer than one section, however much text there is', async () => {
    const b = (await currentBuildDir(await fixtureIndex({ 'kb/a.md': '# A\nalpha\n' })))!;
    const sectionChars = 4096;
    const count = Math.ceil((1.25 * PIECE_BYTES) / sectionChars);
    const big: StoredSection[] = Array.from({ length: count }, (_, i) => ({
      doc: 0,
      headings: [`H${i}`],
      text: `${i} `.padEnd(sectionChars, 'x'),
      role: 'content',
    }));
    const bigDocuments: StoredDocument[] = [
      { kb: 'kb', path: 'a.md', title: 'A', hash: 'h', firstSection: 0, sectionCount: count },
    ];
    resign(b, 'sections.bin', Buffer.from(bytes(sectionsPieces(bigDocuments, big))));
    const path = join(b, 'manifest.json');
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), sections: count }));
    expect(fileBuffer(join(b, 'sections.bin')).byteLength).toBeGreaterThan(PIECE_BYTES);

    let longest = 0;
    const measure = (s: unknown) => (longest = Math.max(longest, typeof s === 'string' ? s.length : 0));
    const toString = Buffer.prototype.toString as (this: Buffer, ...args: unknown[]) => string;
    vi.spyOn(Buffer.prototype, 'toString').mockImplementation(function (this: Buffer, ...args: unknown[]) {
      const s = toString.apply(this, args);
      measure(s);
      return s;
    });
    const parse = JSON.parse;
    vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      measure(text);
      return parse(text, reviver) as unknown;
    });
    const read = await readBuildSections(b);
    expect(read.sections).toEqual(big);
    expect(longest).toBeLessThanOrEqual(Math.max(sectionChars, readFileSync(path).length));
  });
});
