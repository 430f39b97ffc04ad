/**
 * What the renderer derives from a section's text alone (its passages, their terms and sentences,
 * the definitions it gives), kept for the next call that shows the same text. Keyed by the text
 * itself, so a cached value can never belong to another build: a reload that keeps a page keeps
 * its hits, one that changes it misses, and nothing has to be told about reloads. Bounded by the
 * characters of the texts it holds (the values grow with them), least recently used out first, so
 * a server that reloads forever holds at most this much.
 */

export class TextCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    /** Characters of text held at most: the oldest entries go when a new one would pass it. */
    readonly maxChars: number,
  ) {}

  /** The value for `text`, made by `make` the first time (and again once it was evicted). */
  get(text: string, make: (text: string) => V): V {
    const held = this.entries.get(text);
    if (held !== undefined) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
      this.entries.delete(text);
      this.entries.set(text, held);
      return held;
    }
    const value = make(text);
    if (text.length > this.maxChars) return value;
    this.entries.set(text, value);
    this.chars += text.length;
    for (const oldest of this.entries.keys()) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    return value;
  }

  /** Texts held, and their characters. */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}
