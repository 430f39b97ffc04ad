import { IndexError } from './format.js';
import type { LexicalData, LexicalField } from './lexical-data.js';
import type { PostingsFileParts } from './postings-file.js';
import { PiecedFile } from './pieces.js';
import { readError } from './section-store.js';

/**
 * Where a lexical index finds its terms and each term's postings: the statistics in memory (as the
 * indexer builds them, and tests), or postings.bin read by term (a server: postings-file.ts). The
 * terms are sorted, so a term is found by bisection and no map of every term is built.
 */

/** One term's postings as stored: sections ascending and the term's count in each field. */
export interface RawPostings {
  sections: Int32Array;
  tf: Record<LexicalField, Uint16Array>;
}

export interface PostingsSource {
  readonly sectionCount: number;
  readonly termCount: number;
  /** Tokens per field of each section. */
  readonly lengths: Record<LexicalField, Uint32Array>;
  termAt(t: number): string;
  /** How many sections hold term t. */
  frequency(t: number): number;
  postings(t: number): RawPostings;
  close(): void;
}

/** What a search is handed of the lexical index: the statistics themselves, or the parts of postings.bin. */
export type LexicalParts = LexicalData | PostingsFileParts;

export function postingsSource(parts: LexicalParts): PostingsSource {
  return 'postingSections' in parts ? new MemoryPostings(parts) : new FilePostings(parts);
}

/** Term t's index, or −1. Terms are in `.sort()` order (UTF-16 code units), as `<` compares. */
export function findTerm(source: PostingsSource, term: string): number {
  let lo = 0;
  let hi = source.termCount - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const found = source.termAt(mid);
    if (found === term) return mid;
    if (found < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

class MemoryPostings implements PostingsSource {
  constructor(private readonly data: LexicalData) {}

  get sectionCount(): number {
    return this.data.sectionCount;
  }
  get termCount(): number {
    return this.data.terms.length;
  }
  get lengths(): Record<LexicalField, Uint32Array> {
    return this.data.lengths;
  }

  termAt(t: number): string {
    return this.data.terms[t]!;
  }

  frequency(t: number): number {
    return this.data.termStart[t + 1]! - this.data.termStart[t]!;
  }

  postings(t: number): RawPostings {
    const { termStart, postingSections, tf } = this.data;
    const [from, to] = [termStart[t]!, termStart[t + 1]!];
    return {
      sections: postingSections.subarray(from, to),
      tf: {
        title: tf.title.subarray(from, to),
        headings: tf.headings.subarray(from, to),
        body: tf.body.subarray(from, to),
      },
    };
  }

  close(): void {}
}

/** Reads a copy of `count` elements of a column from `first`, verified, into a typed array of its own. */
function readColumn<T extends Int32Array | Uint16Array>(
  file: PiecedFile,
  at: number,
  first: number,
  count: number,
  make: (n: number) => T,
): T {
  const out = make(count);
  const bytes = file.readSync(at + first * out.BYTES_PER_ELEMENT, at + (first + count) * out.BYTES_PER_ELEMENT);
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(bytes);
  return out;
}

class FilePostings implements PostingsSource {
  private readonly file: PiecedFile;
  private readonly blob: Buffer;

  constructor(private readonly parts: PostingsFileParts) {
    this.file = new PiecedFile(parts.file);
    this.blob = Buffer.from(parts.termBlob.buffer, parts.termBlob.byteOffset, parts.termBlob.byteLength);
  }

  get sectionCount(): number {
    return this.parts.sectionCount;
  }
  get termCount(): number {
    return this.parts.termOffsets.length - 1;
  }
  get lengths(): Record<LexicalField, Uint32Array> {
    return this.parts.lengths;
  }

  termAt(t: number): string {
    const { termOffsets } = this.parts;
    return this.blob.toString('utf8', termOffsets[t]!, termOffsets[t + 1]!);
  }

  frequency(t: number): number {
    return this.parts.termStart[t + 1]! - this.parts.termStart[t]!;
  }

  postings(t: number): RawPostings {
    const { termStart, sections, tf, file } = this.parts;
    const [first, count] = [termStart[t]!, this.frequency(t)];
    let raw: RawPostings;
    try {
      const column = (f: LexicalField) => readColumn(this.file, tf[f].at, first, count, (n) => new Uint16Array(n));
      raw = {
        sections: readColumn(this.file, sections.at, first, count, (n) => new Int32Array(n)),
        tf: { title: column('title'), headings: column('headings'), body: column('body') },
      };
    } catch (error) {
      throw readError(file.path, error);
    }
    const problem = referenceProblem(raw.sections, this.parts.sectionCount);
    if (problem !== undefined) throw new IndexError(`${file.path} refers outside the index (term ${t} ${problem})`);
    return raw;
  }

  close(): void {
    this.file.close();
  }
}

/** A posting list must name existing sections, each once, in order (checked as it is read). */
function referenceProblem(sections: Int32Array, sectionCount: number): string | undefined {
  let last = -1;
  for (const s of sections) {
    if (s < 0 || s >= sectionCount) return `points at section ${s} of ${sectionCount}`;
    if (s <= last) return `lists section ${s} after section ${last}`;
    last = s;
  }
  return undefined;
}
