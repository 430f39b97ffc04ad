import { afterEach, describe, expect, it } from 'vitest';
import { TurnGate } from '../../src/http/turn-gate.js';

/**
 * The turn gate (src/http/turn-gate.ts): steps admitted together run in turns of the event loop
 * of their own, in turn by client. A turn is counted by a ticker that re-queues itself with
 * setImmediate, which Node runs once per turn of the loop.
 */

let ticking = false;
let turn = 0;
function startTicker(): void {
  ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
}

afterEach(() => {
  ticking = false;
});

const settled = (gate: TurnGate) =>
  new Promise<void>((resolve) => {
    const check = () => (gate.size === 0 ? setImmediate(resolve) : setImmediate(check));
    check();
  });

describe('TurnGate', () => {
  it('runs steps admitted in one turn in turns of their own, in order', async () => {
    const gate = new TurnGate();
    startTicker();
    const seen: { step: number; turn: number }[] = [];
    for (let step = 0; step < 20; step++) gate.admit('a', () => seen.push({ step, turn }));
    await settled(gate);
    expect(seen.map((s) => s.step)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(seen.map((s) => s.turn)).size).toBe(20);
  });

  it("serves a client waiting with one step after at most one of another client's", async () => {
    const gate = new TurnGate();
    const order: string[] = [];
    for (let i = 0; i < 10; i++) gate.admit('heavy', () => order.push(`heavy${i}`));
    gate.admit('light', () => order.push('light'));
    await settled(gate);
    expect(order.indexOf('light')).toBe(1);
  });

  it('resumes an awaiting caller in a turn of its own', async () => {
    const gate = new TurnGate();
    startTicker();
    const turns: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        await gate.turn('a');
        turns.push(turn);
      }),
    );
    expect(new Set(turns).size).toBe(5);
  });
});
