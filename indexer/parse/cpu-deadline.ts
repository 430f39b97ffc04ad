import type { Worker } from 'node:worker_threads';

/**
 * The parse limit counts the parser's own CPU time, not time on the wall. On a busy machine a
 * parse waits for a core: a page that parses in 5 s of CPU took over 20 s of wall time while other
 * work ran, so whether it was indexed depended on the load, and two builds of one corpus differed.
 * A thread's CPU time is about the same however busy the machine is.
 */

/** Reads a thread's CPU time in ms (from any origin: only differences count). */
export type ThreadClock = () => Promise<number>;

const usageMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

/** The worker thread's CPU time, read from this thread while the worker runs; wall time on a Node without `worker.cpuUsage` (before 24.6). */
export function workerCpuClock(worker: Worker): ThreadClock {
  if (typeof (worker as Partial<Worker>).cpuUsage !== 'function') return async () => performance.now();
  return async () => usageMs(await worker.cpuUsage());
}

/** The calling thread's CPU time in ms, where Node can tell (`process.threadCpuUsage`). */
export function ownCpuMs(): number | undefined {
  if (typeof (process as Partial<NodeJS.Process>).threadCpuUsage !== 'function') return undefined;
  return usageMs(process.threadCpuUsage());
}

/** setTimeout takes 1 to 2^31 - 1 ms (beyond, it fires at once); a limit set in seconds may be fractional or huge. */
function timerMs(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms)), 2 ** 31 - 1);
}

/**
 * Calls `over` once the thread has spent `limitMs` of CPU time counted from now, or `failed` if
 * its clock can no longer be read (the thread ended). Resolves, once the starting point is read,
 * to a function that stops the watch. A thread's CPU time never runs ahead of the wall clock, so
 * the limit cannot pass sooner than `limitMs - used` ms after a reading: the clock is read then,
 * and again until the limit has passed (once, at the limit, for a thread that had a core to itself).
 */
export async function cpuDeadline(
  clock: ThreadClock,
  limitMs: number,
  over: () => void,
  failed: () => void,
): Promise<() => void> {
  const start = await clock();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    clock().then(
      (now) => {
        if (stopped) return;
        const remaining = limitMs - (now - start);
        if (remaining <= 0) over();
        else timer = setTimeout(check, timerMs(remaining));
      },
      () => {
        if (!stopped) failed();
      },
    );
  };
  timer = setTimeout(check, timerMs(limitMs));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
