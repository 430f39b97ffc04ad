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
