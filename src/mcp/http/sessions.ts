import { randomBytes } from 'node:crypto';

/**
 * Open MCP sessions: a capped map with an idle timer per session. Knows nothing about HTTP or
 * MCP; the value only needs to close. A session is busy while a request is running in it; its
 * idle time counts from the start or end of its last request, whichever came later. A busy
 * session does not expire while that is recent, but a request still pending after the whole idle
 * time (a client that never reads its answers) no longer holds the session: it expires, and
 * closing it ends those responses and frees what they hold. A session runs at most `maxPending`
 * requests at once.
 */

interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  value: T;
  timer: NodeJS.Timeout;
  busy: number;
  lastActive: number;
  /** The client that opened it (fair-share.ts), for the per-client bound. */
  owner: string;
}

interface SessionRegistryOptions {
  maxSessions: number;
  idleMs: number;
  /** Requests running at once in one session at most (default 8); begin() refuses more. */
  maxPending?: number;
  /** Told when a session expired (for the log). */
  onExpire?: (id: string) => void;
}

/**
 * 32 random bytes, base64url: unguessable, and visible ASCII as the spec requires. A replica id
 * goes in front (`r1.<random>`), so a proxy can send the session's later requests to the replica
 * that holds it (deploy/nginx); base64url has no '.', so the prefix is unambiguous.
 */
export function newSessionId(replicaId?: string): string {
  const random = randomBytes(32).toString('base64url');
  return replicaId === undefined ? random : `${replicaId}.${random}`;
}

const DEFAULT_MAX_PENDING = 8;

export class SessionRegistry<T extends Closable> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly perOwner = new Map<string, number>();

  constructor(private readonly options: SessionRegistryOptions) {}

  get size(): number {
    return this.entries.size;
  }

  isFull(): boolean {
    return this.entries.size >= this.options.maxSessions;
  }

  /** Sessions `owner` holds. */
  ownedBy(owner: string): number {
    return this.perOwner.get(owner) ?? 0;
  }

  /** Adds a session; the caller checked isFull() in the same tick, so the cap holds under concurrency. */
  add(id: string, value: T, owner = ''): void {
    if (this.entries.has(id)) throw new Error(`session ${id} already exists`);
    const timer = setTimeout(() => this.expire(id), this.options.idleMs);
    // An idle session must not keep the process alive on shutdown.
    timer.unref();
    this.entries.set(id, { value, timer, busy: 0, lastActive: Date.now(), owner });
    this.perOwner.set(owner, this.ownedBy(owner) + 1);
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /** Marks a request as running in the session; pair with end(). False (and nothing marked) when the session already runs maxPending requests. */
  begin(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return true;
    if (entry.busy >= (this.options.maxPending ?? DEFAULT_MAX_PENDING)) return false;
    entry.busy++;
    entry.lastActive = Date.now();
    return true;
  }

  /** The request finished: the idle time starts again. */
  end(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.busy = Math.max(0, entry.busy - 1);
    entry.lastActive = Date.now();
    entry.timer.refresh();
  }

  /** Forgets a session without closing it (the session closed itself). Returns whether it was there. */
  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.entries.delete(id);
    const left = this.ownedBy(entry.owner) - 1;
    if (left > 0) this.perOwner.set(entry.owner, left);
    else this.perOwner.delete(entry.owner);
    return true;
  }

  /**
   * Seconds until an idle session (of `owner`, when given) expires and frees a slot, at least 1;
   * the full idle time if all are busy.
   */
  retryAfterSeconds(now: number = Date.now(), owner?: string): number {
    let soonest = this.options.idleMs;
    for (const entry of this.entries.values()) {
      if (entry.busy === 0 && (owner === undefined || entry.owner === owner))
        soonest = Math.min(soonest, entry.lastActive + this.options.idleMs - now);
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }

  /**
   * Makes room for a new session when the cap is reached: closes the idle session (no request
   * running) of the client holding the most sessions, the one idle longest among them, and
   * returns its id; undefined when no client holding two or more has an idle one. Ten addresses
   * holding 100 sessions each kept every new client out for the whole idle time (30 minutes,
   * issue 40); now a new client takes the place of one of theirs, and a client's only session is
   * never taken.
   */
  evictForNew(): string | undefined {
    let chosen: [string, Entry<T>] | undefined;
    for (const candidate of this.entries) {
      const entry = candidate[1];
      if (entry.busy > 0 || this.ownedBy(entry.owner) < 2) continue;
      if (chosen === undefined || this.evictsBefore(entry, chosen[1])) chosen = candidate;
    }
    if (chosen === undefined) return undefined;
    const [id, entry] = chosen;
    this.delete(id);
    void entry.value.close().catch(() => undefined);
    return id;
  }

  /** Whether `a` is evicted before `b`: its owner holds more sessions, or as many and it was idle longer. */
  private evictsBefore(a: Entry<T>, b: Entry<T>): boolean {
    const [held, other] = [this.ownedBy(a.owner), this.ownedBy(b.owner)];
    return held > other || (held === other && a.lastActive < b.lastActive);
  }

  /** Closes and forgets every session. */
  async closeAll(): Promise<void> {
    const values = [...this.entries.values()].map((e) => e.value);
    for (const id of [...this.entries.keys()]) this.delete(id);
    await Promise.allSettled(values.map((v) => v.close()));
  }

  private expire(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (entry.busy > 0 && Date.now() - entry.lastActive < this.options.idleMs) {
      entry.timer.refresh();
      return;
    }
    this.delete(id);
    this.options.onExpire?.(id);
    void entry.value.close().catch(() => undefined);
  }
}
