import type { StoredSection } from './format.js';

/**
 * Sections a served index has read and verified, kept by section number so the next search that
 * shows them gets the same strings back. Decoding a shown window afresh on every call made new
 * strings each time, and every cache keyed by text (the renderer's, src/mcp/render/text-cache.ts)
 * then hashed and compared each one in full; the same string object hashes once and compares by
 * identity. Bounded by the characters of the texts held, the oldest read first out: the
 * renderer's cache keys on these very strings, so what both hold is held once.
 */
export class SectionCache {
  private readonly held = new Map<number, StoredSection>();
  private chars = 0;

  constructor(
    /** Characters of text held at most. */
    readonly maxChars: number,
  ) {}

  get(section: number): StoredSection | undefined {
    return this.held.get(section);
  }

  set(section: number, value: StoredSection): void {
    const size = value.text.length;
    if (size > this.maxChars) return;
    const before = this.held.get(section);
    if (before !== undefined) {
      this.held.delete(section);
      this.chars -= before.text.length;
    }
    this.held.set(section, value);
    this.chars += size;
    for (const [oldest, entry] of this.held) {
      if (this.chars <= this.maxChars) break;
      this.held.delete(oldest);
      this.chars -= entry.text.length;
    }
  }

  /** Sections held, and their text's characters. */
  size(): { entries: number; chars: number } {
    return { entries: this.held.size, chars: this.chars };
  }
}
