import { FairQueue } from './fair-queue.js';

/**
 * One step of request work per turn of the event loop, in turn by client. Node runs every
 * callback that is ready in one turn before it looks at the network again, so 200 requests that
 * arrive together (or the answers of 8 heavy searches that come back together) were all handled
 * before /healthz was even read: the abuse run's "unread answers" phase held the server's event
 * loop for 0.4–1.0 s at load 10 with no single slow step (issue 40). Through the gate each step
 * waits for a turn of its own (setImmediate), so the network is read between any two, and a
 * client's steps wait behind at most one of each other client's (src/http/fair-queue.ts): a
 * light client's request or answer is not queued behind a heavy client's whole burst.
 */
export class TurnGate {
  private readonly waiting = new FairQueue<() => void>();
  private scheduled = false;

  /** Runs `step` in a turn of its own, after the waiting steps of clients served less recently than `client`. */
  admit(client: string, step: () => void): void {
    this.waiting.push(client, step);
    if (!this.scheduled) this.schedule();
  }

  /** Resolves in a turn of `client`'s own: what follows the await (until the next one) runs there. */
  turn(client: string): Promise<void> {
    return new Promise((resolve) => this.admit(client, resolve));
  }

  /** Steps waiting for a turn now. */
  get size(): number {
    return this.waiting.size;
  }

  private schedule(): void {
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const step = this.waiting.shift();
      if (this.waiting.size > 0) this.schedule();
      step?.();
    });
  }
}
