/**
 * Waiting work, served in turn by who asked: each key (a client) has its own first-in-first-out
 * queue, and the next item comes from the key that has waited longest since it was last served.
 * One client with 30 searches waiting and another with one: the other's is served after at most
 * one of the first client's, not after all 30. Pure data structure; the search pool and the search
 * page's Markdown renderer use it.
 *
 * With a `share`, a key also runs at most `share` items at once (taken and not yet `done`) while
 * another key has asked within `activeMs`: the search pool gives each client one search per worker
 * when others are about, so the worker's second slot stays free for them and a light client's
 * search waits behind at most one heavy search per worker (issue 40, finding 5). Alone, a client
 * may fill every slot: a burst from one address keeps the workers fed between searches.
 */
export interface FairShare {
  /** Items one key runs at once while another key is active. */
  share: number;
  /** How long after its last push a key counts as active, ms: a client between two searches still counts. */
  activeMs: number;
  now?: () => number;
}

/**
 * How long a search client counts as about after it last asked, ms: long enough to span the round
 * trip between one client's searches, so its next one still finds a slot kept free.
 */
export const CLIENT_ACTIVE_MS = 1000;

export class FairQueue<T> {
  /** Keys in the order they are served next (a Map keeps insertion order). */
  private readonly queues = new Map<string, T[]>();
  /** Items taken and not yet done, by key (kept only with a share). */
  private readonly running = new Map<string, number>();
  /** When each key last pushed, oldest first (kept only with a share). */
  private readonly asked = new Map<string, number>();
  private count = 0;

  constructor(private readonly fair?: FairShare) {}

  get size(): number {
    return this.count;
  }

  push(key: string, item: T): void {
    const queue = this.queues.get(key);
    if (queue) queue.push(item);
    else this.queues.set(key, [item]);
    this.count++;
    if (this.fair) this.noteAsked(key);
  }

  /**
   * The next item: the oldest of the key served least recently among those under their share;
   * that key then goes last. Undefined when nothing waits or every waiting key is at its share.
   * With a share, call `done(key)` when the item's work ends.
   */
  shift(): T | undefined {
    for (const [key, queue] of this.queues) {
      if (!this.mayRun(key)) continue;
      const item = queue.shift()!;
      this.queues.delete(key);
      if (queue.length > 0) this.queues.set(key, queue);
      this.count--;
      if (this.fair) this.running.set(key, (this.running.get(key) ?? 0) + 1);
      return item;
    }
    return undefined;
  }

  /** An item of `key` taken by shift() has finished: the key may run another. */
  done(key: string): void {
    const left = (this.running.get(key) ?? 0) - 1;
    if (left > 0) this.running.set(key, left);
    else this.running.delete(key);
  }

  /** Removes and returns every item, in no particular order. */
  drain(): T[] {
    const items = [...this.queues.values()].flat();
    this.queues.clear();
    this.count = 0;
    return items;
  }

  private mayRun(key: string): boolean {
    if (!this.fair || (this.running.get(key) ?? 0) < this.fair.share) return true;
    return !this.othersActive(key);
  }

  /** Whether a key other than `key` runs, waits or asked within activeMs. */
  private othersActive(key: string): boolean {
    for (const other of this.running.keys()) if (other !== key) return true;
    for (const other of this.queues.keys()) if (other !== key) return true;
    const since = this.clock() - this.fair!.activeMs;
    for (const [other, at] of this.asked) if (other !== key && at >= since) return true;
    return false;
  }

  /** Records when `key` asked, keeping `asked` in time order and dropping keys gone quiet. */
  private noteAsked(key: string): void {
    const now = this.clock();
    this.asked.delete(key);
    this.asked.set(key, now);
    for (const [other, at] of this.asked) {
      if (at >= now - this.fair!.activeMs) break;
      this.asked.delete(other);
    }
  }

  private clock(): number {
    return this.fair?.now ? this.fair.now() : performance.now();
  }
}
