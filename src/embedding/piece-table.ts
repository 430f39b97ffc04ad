/**
 * A string → id table over flat typed arrays: the pieces' UTF-16 code units end to end, where
 * each piece starts, its id, and an open-addressing hash over them. It answers what a
 * `Map<string, number>` answers for the tokenizer's 150,000 pieces in a third of the memory,
 * can be written to disk and read back without parsing (its hash slots included: building them
 * for 150,000 pieces was ~0.1 s of a server's start), and looks up a substring of a word in place
 * (no piece string is made). Later entries for the same string win, as `Map.set` does.
 */

/** What is stored: piece i is `units[starts[i]] … units[starts[i + 1] - 1]`, with id `ids[i]`. */
export interface PieceArrays {
  units: Uint16Array;
  /** One more than the pieces: where each starts, then the end of the last. */
  starts: Uint32Array;
  ids: Int32Array;
  /** The open-addressing hash, slot → piece + 1 (0: empty); built from the rest when absent. */
  slots?: Int32Array;
}

/** How many hash slots `count` pieces get: a power of two, at least twice the pieces, so probes stay short. */
function slotCount(count: number): number {
  let size = 1024;
  while (size < count * 2) size *= 2;
  return size;
}

/**
 * Whether stored `slots` can be the hash of `count` pieces: the size above. Their entries are not
 * checked one by one (that cost half of what building them did): a probe stops after visiting
 * every slot, and an entry that is no piece matches nothing, so a damaged table gives wrong
 * answers at worst, never a hang.
 */
export function slotsFit(slots: Int32Array, count: number): boolean {
  return slots.length === slotCount(count);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units: `hashStep` extends a hash by one unit, so callers can grow a piece. */
export const HASH_START = FNV_OFFSET;
export function hashStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, FNV_PRIME);
}

export class PieceTable {
  /** The pieces and their hash slots: what is stored. */
  readonly arrays: Required<PieceArrays>;
  private readonly slots: Int32Array;
  private readonly mask: number;

  private constructor(arrays: PieceArrays) {
    const count = arrays.ids.length;
    this.slots = arrays.slots ?? new Int32Array(slotCount(count));
    this.mask = this.slots.length - 1;
    this.arrays = { ...arrays, slots: this.slots };
    if (arrays.slots === undefined) for (let piece = 0; piece < count; piece++) this.insert(piece);
  }

  static fromArrays(arrays: PieceArrays): PieceTable {
    const { units, starts, ids } = arrays;
    if (starts.length !== ids.length + 1 || starts[starts.length - 1] !== units.length)
      throw new RangeError('piece table arrays do not fit together');
    for (let i = 1; i < starts.length; i++)
      if (starts[i]! < starts[i - 1]!) throw new RangeError('piece table starts are not in order');
    if (arrays.slots !== undefined && !slotsFit(arrays.slots, ids.length))
      throw new RangeError('piece table slots do not fit its pieces');
    return new PieceTable(arrays);
  }

  /** The entries of a Map, in its order (so its last-set-wins ids carry over). */
  static fromMap(map: ReadonlyMap<string, number>): PieceTable {
    let length = 0;
    for (const piece of map.keys()) length += piece.length;
    const units = new Uint16Array(length);
    const starts = new Uint32Array(map.size + 1);
    const ids = new Int32Array(map.size);
    let at = 0;
    let i = 0;
    for (const [piece, id] of map) {
      starts[i] = at;
      ids[i++] = id;
      for (let k = 0; k < piece.length; k++) units[at++] = piece.charCodeAt(k);
    }
    starts[i] = at;
    return new PieceTable({ units, starts, ids });
  }

  /** The id of `text.slice(start, end)`, or undefined. */
  get(text: string, start = 0, end = text.length): number | undefined {
    let hash = HASH_START;
    for (let k = start; k < end; k++) hash = hashStep(hash, text.charCodeAt(k));
    return this.getHashed(hash, text, start, end);
  }

  /** `get` with the hash of the substring already computed (by `hashStep` from `HASH_START`). */
  getHashed(hash: number, text: string, start: number, end: number): number | undefined {
    const { units, starts, ids } = this.arrays;
    const length = end - start;
    for (let probe = 0, slot = hash & this.mask; probe <= this.mask; probe++, slot = (slot + 1) & this.mask) {
      const piece = this.slots[slot]! - 1;
      if (piece < 0) return undefined;
      const from = starts[piece]!;
      // Also false for an entry past the last piece (stored slots are not checked one by one).
      if (starts[piece + 1]! - from !== length) continue;
      let k = 0;
      while (k < length && units[from + k] === text.charCodeAt(start + k)) k++;
      if (k === length) return ids[piece];
    }
    return undefined;
  }

  /** A later duplicate takes the earlier one's slot, so it wins as in a Map. */
  private insert(piece: number): void {
    const { units, starts } = this.arrays;
    const from = starts[piece]!;
    const to = starts[piece + 1]!;
    let hash = HASH_START;
    for (let k = from; k < to; k++) hash = hashStep(hash, units[k]!);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const other = this.slots[slot]! - 1;
      if (other < 0 || this.samePiece(other, from, to)) {
        this.slots[slot] = piece + 1;
        return;
      }
    }
  }

  private samePiece(piece: number, from: number, to: number): boolean {
    const { units, starts } = this.arrays;
    const start = starts[piece]!;
    if (starts[piece + 1]! - start !== to - from) return false;
    for (let k = 0; k < to - from; k++) if (units[start + k] !== units[from + k]) return false;
    return true;
  }
}
