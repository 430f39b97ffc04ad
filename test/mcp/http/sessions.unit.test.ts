import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newSessionId, SessionRegistry } from '../../../src/mcp/http/sessions.js';

class FakeSession {
  closed = 0;
  async close(): Promise<void> {
    this.closed++;
  }
}

describe('session ids', () => {
  it('are long, random and visible ASCII', () => {
    const ids = new Set(Array.from({ length: 1000 }, newSessionId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{43}$/);
  });
});

describe('SessionRegistry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes a session after it has been idle for the idle time, not before', () => {
    const expired: string[] = [];
    const registry = new SessionRegistry<FakeSession>({
      maxSessions: 10,
      idleMs: 1000,
      onExpire: (id) => expired.push(id),
    });
    const s = new FakeSession();
    registry.add('a', s);
    vi.advanceTimersByTime(999);
    expect(registry.get('a')).toBe(s);
    vi.advanceTimersByTime(1);
    expect(registry.get('a')).toBeUndefined();
    expect(s.closed).toBe(1);
    expect(expired).toEqual(['a']);
  });

  it('counts idle time from the last request, and keeps a busy session while its request is recent', () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 10, idleMs: 1000 });
    const s = new FakeSession();
    registry.add('a', s);
    vi.advanceTimersByTime(800);
    registry.begin('a');
    vi.advanceTimersByTime(900);
    expect(registry.get('a')).toBe(s);
    registry.end('a');
    vi.advanceTimersByTime(999);
    expect(registry.get('a')).toBe(s);
    vi.advanceTimersByTime(1);
    expect(registry.get('a')).toBeUndefined();
  });

  it('expires a session whose request stays pending for the whole idle time (a client that never reads)', () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 10, idleMs: 1000 });
    const s = new FakeSession();
    registry.add('a', s);
    vi.advanceTimersByTime(500);
    registry.begin('a');
    vi.advanceTimersByTime(1499);
    expect(registry.get('a')).toBe(s);
    vi.advanceTimersByTime(1);
    expect(registry.get('a')).toBeUndefined();
    expect(s.closed).toBe(1);
  });

  it('runs at most maxPending requests at once in one session', () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 10, idleMs: 1000, maxPending: 2 });
    registry.add('a', new FakeSession());
    expect([registry.begin('a'), registry.begin('a'), registry.begin('a')]).toEqual([true, true, false]);
    registry.end('a');
    expect(registry.begin('a')).toBe(true);
  });

  it('is full at the cap, and says when a slot frees up', () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 2, idleMs: 60_000 });
    registry.add('a', new FakeSession());
    vi.advanceTimersByTime(20_000);
    registry.add('b', new FakeSession());
    expect(registry.isFull()).toBe(true);
    expect(registry.retryAfterSeconds()).toBe(40);
    registry.begin('a');
    expect(registry.retryAfterSeconds()).toBe(60);
    registry.delete('b');
    expect(registry.isFull()).toBe(false);
  });

  it("counts each owner's sessions, through expiry and delete, and says when one of that owner's frees up", () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 10, idleMs: 60_000 });
    registry.add('a', new FakeSession(), 'alice');
    vi.advanceTimersByTime(20_000);
    registry.add('b', new FakeSession(), 'alice');
    registry.add('c', new FakeSession(), 'bob');
    expect([registry.ownedBy('alice'), registry.ownedBy('bob'), registry.ownedBy('carol')]).toEqual([2, 1, 0]);
    expect(registry.retryAfterSeconds(Date.now(), 'alice')).toBe(40);
    expect(registry.retryAfterSeconds(Date.now(), 'bob')).toBe(60);
    vi.advanceTimersByTime(40_000);
    expect(registry.ownedBy('alice')).toBe(1);
    registry.delete('c');
    expect(registry.ownedBy('bob')).toBe(0);
  });

  it('makes room at the cap: the idle session of the client holding most goes, idle longest first; never a lone one', () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 5, idleMs: 60_000 });
    const sessions = Object.fromEntries(['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((id) => [id, new FakeSession()]));
    for (const id of ['a1', 'b1', 'a2', 'b2', 'a3', 'c1']) {
      vi.advanceTimersByTime(1000);
      registry.add(id, sessions[id]!, id[0]);
    }
    registry.begin('a1');
    expect(registry.evictForNew()).toBe('a2');
    expect(sessions.a2!.closed).toBe(1);
    // a and b hold two each now: the one idle longest of theirs goes (a1 is busy).
    expect(registry.evictForNew()).toBe('b1');
    expect(registry.evictForNew()).toBe('a3');
    // a's last is busy, b's and c's are their only ones.
    expect(registry.evictForNew()).toBeUndefined();
    expect([registry.ownedBy('a'), registry.ownedBy('b'), registry.ownedBy('c')]).toEqual([1, 1, 1]);
  });

  it('closeAll closes and forgets every session', async () => {
    const registry = new SessionRegistry<FakeSession>({ maxSessions: 5, idleMs: 1000 });
    const sessions = [new FakeSession(), new FakeSession()];
    sessions.forEach((s, i) => registry.add(String(i), s));
    await registry.closeAll();
    expect(registry.size).toBe(0);
    expect(sessions.map((s) => s.closed)).toEqual([1, 1]);
    vi.advanceTimersByTime(5000);
    expect(sessions.map((s) => s.closed)).toEqual([1, 1]);
  });
});
