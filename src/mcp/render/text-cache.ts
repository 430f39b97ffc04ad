/**
 * What the renderer derives from a section's text alone (its passages, their terms and sentences,
 * the definitions it gives), kept for the next call that shows the same text. Keyed by the text
 * itself, so a cached value can never belong to another build: a reload that keeps a page keeps
 * its hits, one that changes it misses, and nothing has to be told about reloads. Bounded by the
 * characters of the texts it holds (the values grow with them), the oldest not read again out
 * first, so a server that reloads forever holds at most this much.
 */

export class TextCache<V> {
  /** Oldest first; `used` marks an entry read since it last reached the front (see `get`). */
  private readonly entries = new Map<string, { value: V; used: boolean }>();
  private chars = 0;

  constructor(
    /** Characters of text held at most: the oldest entries go when a new one would pass it. */
    readonly maxChars: number,
  ) {}

  /**
   * The value for `text`, made by `make` the first time (and again once it was evicted). A hit
   * only marks its entry (moving it to the back on every hit, a delete and an insert, was a tenth
   * of a response's rendering): an entry marked when eviction reaches it goes to the back
   * unmarked instead of out, so what is read again stays and the rest goes oldest first.
   */
  get(text: string, make: (text: string) => V): V {
    const held = this.entries.get(text);
    if (held !== undefined) {
      held.used = true;
      return held.value;
    }
    const value = make(text);
    if (text.length > this.maxChars) return value;
    this.entries.set(text, { value, used: false });
    this.chars += text.length;
    while (this.chars > this.maxChars) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used) {
        entry.used = false;
        this.entries.set(oldest, entry);
      } else this.chars -= oldest.length;
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
