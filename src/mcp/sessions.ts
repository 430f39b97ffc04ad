import { randomBytes } from 'node:crypto';

/**
 * Open MCP sessions: a capped map with an idle timer per session. Knows nothing about HTTP or
 * MCP; the value only needs to close. A session is busy while a request is running in it, and a
 * busy session never expires; its idle time counts from the end of its last request.
 */

export interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  value: T;
  timer: NodeJS.Timeout;
  busy: number;
  lastActive: number;
}

export interface SessionRegistryOptions {
  maxSessions: number;
  idleMs: number;
  /** Told when a session expired (for the log). */
  onExpire?: (id: string) => void;
}

/** 32 random bytes, base64url: unguessable, and visible ASCII as the spec requires. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export class SessionRegistry<T extends Closable> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly options: SessionRegistryOptions) {}

  get size(): number {
    return this.entries.size;
  }

  isFull(): boolean {
    return this.entries.size >= this.options.maxSessions;
  }

  /** Adds a session; the caller checked isFull() in the same tick, so the cap holds under concurrency. */
  add(id: string, value: T): void {
    if (this.entries.has(id)) throw new Error(`session ${id} already exists`);
    const timer = setTimeout(() => this.expire(id), this.options.idleMs);
    // An idle session must not keep the process alive on shutdown.
    timer.unref();
    this.entries.set(id, { value, timer, busy: 0, lastActive: Date.now() });
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /** Marks a request as running in the session; pair with end(). */
  begin(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.busy++;
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
    return true;
  }

  /** Seconds until an idle session expires and frees a slot, at least 1; the full idle time if all are busy. */
  retryAfterSeconds(now: number = Date.now()): number {
    let soonest = this.options.idleMs;
    for (const entry of this.entries.values()) {
      if (entry.busy === 0) soonest = Math.min(soonest, entry.lastActive + this.options.idleMs - now);
    }
    return Math.max(1, Math.ceil(soonest / 1000));
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
    if (entry.busy > 0) {
      entry.timer.refresh();
      return;
    }
    this.delete(id);
    this.options.onExpire?.(id);
    void entry.value.close().catch(() => undefined);
  }
}
