import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/http/fair-queue.js';

describe('FairQueue', () => {
  it('serves keys in turn, each in its own order, so one key with many items waits its turn', () => {
    const queue = new FairQueue<string>();
    for (let i = 0; i < 5; i++) queue.push('heavy', `h${i}`);
    queue.push('light', 'l0');
    queue.push('light', 'l1');
    queue.push('third', 't0');
    const order: string[] = [];
    while (queue.size > 0) order.push(queue.shift()!);
    expect(order).toEqual(['h0', 'l0', 't0', 'h1', 'l1', 'h2', 'h3', 'h4']);
    expect(queue.shift()).toBeUndefined();
  });

  it('puts a key that comes back after being emptied at the end of the turn', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.shift()).toBe(1);
    queue.push('a', 3);
    queue.push('c', 4);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([2, 3, 4]);
    queue.push('a', 5);
    expect(queue.drain()).toEqual([5]);
    expect(queue.size).toBe(0);
  });
});

describe('FairQueue with a share', () => {
  const clock = () => {
    const state = { now: 0 };
    return { state, now: () => state.now };
  };

  it('runs a key alone in every slot, but keeps it to its share once another key asks', () => {
    const { state, now } = clock();
    const queue = new FairQueue<string>({ share: 1, activeMs: 1000, now });
    for (let i = 0; i < 4; i++) queue.push('heavy', `h${i}`);
    expect([queue.shift(), queue.shift()]).toEqual(['h0', 'h1']);
    queue.push('light', 'l0');
    // heavy runs two, over its share of one while light is about: only light's item may start.
    expect(queue.shift()).toBe('l0');
    queue.done('light');
    expect(queue.shift()).toBeUndefined();
    queue.done('heavy');
    expect(queue.shift()).toBeUndefined();
    queue.done('heavy');
    expect(queue.shift()).toBe('h2');
    expect(queue.shift()).toBeUndefined();
    // Once light has been quiet for activeMs, heavy may fill the slots again.
    state.now = 1001;
    expect(queue.shift()).toBe('h3');
    expect(queue.size).toBe(0);
  });

  it('counts a key as about while it runs or waits, however long ago it asked', () => {
    const { state, now } = clock();
    const queue = new FairQueue<string>({ share: 1, activeMs: 10, now });
    queue.push('light', 'l0');
    expect(queue.shift()).toBe('l0');
    queue.push('heavy', 'h0');
    queue.push('heavy', 'h1');
    state.now = 500;
    expect(queue.shift()).toBe('h0');
    expect(queue.shift()).toBeUndefined();
    queue.done('light');
    expect(queue.shift()).toBe('h1');
  });
});
