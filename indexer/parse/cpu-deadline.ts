import { existsSync, readFileSync } from 'node:fs';

/**
 * The parse limit counts the parser's own CPU time, not time on the wall. On a busy machine a
 * parse waits for a core: a page that parses in 5 s of CPU took over 20 s of wall time while other
 * work ran, so whether it was indexed depended on the load, and two builds of one corpus differed.
 * A thread's CPU time is about the same however busy the machine is.
 */

/** Reads a thread's CPU time in ms (from any origin: only differences count). */
export type ThreadClock = () => Promise<number>;

const usageMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

/** Linux's clock ticks per second in /proc (USER_HZ, 100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The main thread's CPU time of another process (the parser's, parser-process.ts), read from
 * /proc, so its own GC and compiler threads do not count, as they did not on the worker thread it
 * replaced; wall time where there is no /proc (macOS). Rejects once the process is gone.
 */
export function processCpuClock(pid: number): ThreadClock {
  if (!existsSync('/proc/self/task')) return async () => performance.now();
  return async () => {
    // Read at once: a /proc file is made on reading and never waits on a disk, and a build reads
    // one or two per document; fs/promises' open, fstat, read and close through the thread pool
    // were 0.5 s of the indexer's 9.2 s of profiled CPU on Argo CD (--cpu-prof); the sync read is a few µs.
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    // After the command's name, which may hold spaces and parentheses: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (!Number.isFinite(ticks)) throw new Error(`unreadable /proc/${pid}/task/${pid}/stat`);
    return (ticks * 1000) / TICKS_PER_SECOND;
  };
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
