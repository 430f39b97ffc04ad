/**
 * Waiting work, served in turn by who asked: each key (a client) has its own first-in-first-out
 * queue, and the next item comes from the key that has waited longest since it was last served.
 * One client with 30 searches waiting and another with one: the other's is served after at most
 * one of the first client's, not after all 30. Pure data structure; the search pool and the search
 * page's Markdown renderer use it.
 */
export class FairQueue<T> {
  /** Keys in the order they are served next (a Map keeps insertion order). */
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(key: string, item: T): void {
    const queue = this.queues.get(key);
    if (queue) queue.push(item);
    else this.queues.set(key, [item]);
    this.count++;
  }

  /** The next item: the oldest of the key served least recently; that key then goes last. */
  shift(): T | undefined {
    const next = this.queues.entries().next();
    if (next.done) return undefined;
    const [key, queue] = next.value;
    const item = queue.shift()!;
    this.queues.delete(key);
    if (queue.length > 0) this.queues.set(key, queue);
    this.count--;
    return item;
  }

  /** Removes and returns every item, in no particular order. */
  drain(): T[] {
    const items = [...this.queues.values()].flat();
    this.queues.clear();
    this.count = 0;
    return items;
  }
}
