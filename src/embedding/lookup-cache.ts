import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCacheFile } from '../cache-file.js';
import type { TableLocation } from './lookup-table.js';
import { slotsFit } from './piece-table.js';
import type { UnigramParts } from './unigram-tokenizer.js';

/**
 * A static model compiled for loading: its tokenizer's parts as typed arrays and where the table
 * sits in its vectors file, in one hidden file in the model folder. Loading it reads ≈ 5 MB and
 * parses a few hundred bytes of JSON (the vocabulary's hash slots are stored too, not rebuilt), where the model's own files need a
 * 3.5 MB tokenizer.json parsed (150,000 small arrays, ≈ 0.3 s). It is valid only for the folder
 * checksum it records (the digest of every model file, remembered by stat signature in
 * digest-cache.ts), so any change to a model file makes it stale and it is compiled again.
 * A folder that cannot be written just parses the model's files every time.
 */
export const LOOKUP_CACHE_FILE = '.svc-docs-lookup.bin';

/** Raised whenever the layout below or the meaning of a stored part changes. */
const FORMAT = 2;
const ALIGN = 8;

export interface CompiledLookup {
  tokenizer: UnigramParts;
  table: TableLocation;
}

/** Everything but the typed arrays, as JSON at the head of the file. */
interface Header {
  format: number;
  checksum: string;
  table: TableLocation;
  tokenizer: Omit<UnigramParts, 'pieces' | 'scores' | 'maxTokens'> & { maxTokens: number | null };
  /** Element counts of the arrays that follow, in this order. */
  lengths: { scores: number; starts: number; ids: number; units: number; slots: number };
}

const padded = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

/** The compiled form for `checksum`, or undefined when there is none, it is stale, or unreadable. */
export function readCompiledLookup(dir: string, checksum: string): CompiledLookup | undefined {
  let file: Buffer;
  try {
    file = readFileSync(join(dir, LOOKUP_CACHE_FILE));
  } catch {
    return undefined;
  }
  // Typed-array views need aligned offsets; a Buffer may start anywhere in its ArrayBuffer.
  const bytes = file.byteOffset % ALIGN === 0 ? file : Uint8Array.prototype.slice.call(file);
  try {
    return decode(bytes, checksum);
  } catch {
    return undefined;
  }
}

function decode(bytes: Uint8Array, checksum: string): CompiledLookup | undefined {
  const headerBytes = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerBytes))) as Header;
  if (header.format !== FORMAT || header.checksum !== checksum) return undefined;
  const { lengths } = header;
  let at = bytes.byteOffset + padded(4 + headerBytes);
  const take = <T>(
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    length: number,
    size: number,
  ) => {
    const array = make(bytes.buffer, at, length);
    at += padded(length * size);
    return array;
  };
  const scores = take((b, o, n) => new Float64Array(b, o, n), lengths.scores, 8);
  const starts = take((b, o, n) => new Uint32Array(b, o, n), lengths.starts, 4);
  const ids = take((b, o, n) => new Int32Array(b, o, n), lengths.ids, 4);
  const units = take((b, o, n) => new Uint16Array(b, o, n), lengths.units, 2);
  const slots = take((b, o, n) => new Int32Array(b, o, n), lengths.slots, 4);
  if (at !== bytes.byteOffset + bytes.length || !slotsFit(slots, ids.length)) return undefined;
  const { maxTokens, ...rest } = header.tokenizer;
  return {
    tokenizer: {
      ...rest,
      maxTokens: maxTokens ?? Number.POSITIVE_INFINITY,
      scores,
      pieces: { units, starts, ids, slots },
    },
    table: header.table,
  };
}

/** Stores `compiled` for `checksum`; written to a temporary name and renamed, failures ignored. */
export function writeCompiledLookup(dir: string, checksum: string, compiled: CompiledLookup): void {
  const { pieces, scores, maxTokens, ...rest } = compiled.tokenizer;
  const header: Header = {
    format: FORMAT,
    checksum,
    table: compiled.table,
    tokenizer: { ...rest, maxTokens: Number.isFinite(maxTokens) ? maxTokens : null },
    lengths: {
      scores: scores.length,
      starts: pieces.starts.length,
      ids: pieces.ids.length,
      units: pieces.units.length,
      slots: pieces.slots.length,
    },
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const arrays = [scores, pieces.starts, pieces.ids, pieces.units, pieces.slots];
  const out = new Uint8Array(padded(4 + json.length) + arrays.reduce((sum, a) => sum + padded(a.byteLength), 0));
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  let at = padded(4 + json.length);
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += padded(array.byteLength);
  }
  writeCacheFile(join(dir, LOOKUP_CACHE_FILE), out);
}
