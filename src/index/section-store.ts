import { IndexError, SECTION_ROLES, type StoredSection } from './format.js';
import type { LazyStrings } from './file-columns.js';
import type { SectionColumns } from './sections-file.js';
import { PiecedFile, type PiecedFileParts, PieceMismatchError } from './pieces.js';
import { SectionCache } from './section-cache.js';

/**
 * Characters of section text a store keeps decoded (section-cache.ts). The windows Argo CD's 97
 * labelled questions show are 1.9 M characters (2,575 sections); asked in turn, a smaller cache
 * evicted each before it was asked for again and kept nothing (1 M: 0.99× the CPU per call).
 */
export const KEPT_SECTION_CHARS = 2_000_000;

/**
 * The sections of a served index, their headings and text read from sections.bin when asked for
 * (a result's window, a page read whole) rather than held: at a million sections the text is most
 * of the index, and a search needs only the few sections it shows. Every read is checked against
 * the file's piece checksums (pieces.ts). Built from plain, shareable parts, so a search worker
 * makes its own from what the main thread read.
 */

export interface SectionStoreParts
  extends Pick<SectionColumns, 'doc' | 'roles' | 'headingStart' | 'headings' | 'text'> {
  file: PiecedFileParts;
}

/** What reads sections: an index's store, or (a page tool's fixture) a plain array. */
export type SectionSource = Pick<SectionStore, 'length' | 'slice'>;

export class SectionStore {
  private readonly file: PiecedFile;
  private readonly kept: SectionCache;

  constructor(
    readonly parts: SectionStoreParts,
    keptChars = KEPT_SECTION_CHARS,
  ) {
    this.kept = new SectionCache(keptChars);
    this.file = new PiecedFile(parts.file);
  }

  get length(): number {
    return this.parts.doc.length;
  }

  /**
   * Sections `from` … `to - 1` (clamped to the index), read and verified, or kept from an earlier
   * read (the same objects: callers only read them).
   */
  slice(from = 0, to = this.length): StoredSection[] {
    const [a, b] = [Math.max(0, from), Math.min(this.length, to)];
    if (a >= b) return [];
    const kept: StoredSection[] = [];
    for (let s = a; s < b; s++) {
      const section = this.kept.get(s);
      if (section === undefined) break;
      kept.push(section);
    }
    if (kept.length === b - a) return kept;
    const read = this.read(a, b);
    for (let i = 0; i < read.length; i++) this.kept.set(a + i, read[i]!);
    return read;
  }

  /** Sections `a` … `b - 1`, read and decoded in one read of the file. */
  private read(a: number, b: number): StoredSection[] {
    const headings = this.headingsOf(a, b);
    const text = this.strings(this.parts.text, a, b);
    const { doc, roles } = this.parts;
    return headings.map((h, i) => ({
      doc: doc[a + i]!,
      headings: h,
      text: text[i]!,
      role: SECTION_ROLES[roles[a + i]!]!,
    }));
  }

  /** The heading paths of sections `from` … `to - 1`. */
  headingsOf(from: number, to: number): string[][] {
    const { headingStart } = this.parts;
    const flat = this.strings(this.parts.headings, headingStart[from]!, headingStart[to]!);
    const out: string[][] = [];
    for (let s = from; s < to; s++)
      out.push(flat.slice(headingStart[s]! - headingStart[from]!, headingStart[s + 1]! - headingStart[from]!));
    return out;
  }

  close(): void {
    this.file.close();
  }

  /** Strings `from` … `to - 1` of a column, in one read of the file. */
  private strings(column: LazyStrings, from: number, to: number): string[] {
    const { offsets, blobAt } = column;
    let bytes: Buffer;
    try {
      bytes = this.file.readSync(blobAt + offsets[from]!, blobAt + offsets[to]!);
    } catch (error) {
      throw readError(this.parts.file.path, error);
    }
    const base = offsets[from]!;
    const out = new Array<string>(to - from);
    for (let i = from; i < to; i++) out[i - from] = bytes.toString('utf8', offsets[i]! - base, offsets[i + 1]! - base);
    return out;
  }
}

/** A failed or unverified read of an index file, as the one-line error the server reports. */
export function readError(path: string, error: unknown): IndexError {
  if (error instanceof PieceMismatchError) return new IndexError(`${path} is corrupt (${error.message})`);
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new IndexError(`${path} cannot be read (${code})`);
}
