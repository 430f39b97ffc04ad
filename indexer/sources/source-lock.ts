import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { SourceError } from './git.js';
import { processAlive } from '../../src/process-alive.js';

/**
 * One process at a time updates a git corpus's clone: a lock file created exclusively, holding
 * the holder's pid. A lock whose holder is dead (killed mid-fetch) is taken over; one held by a
 * live process is refused with one line, since waiting on a clone of unknown size could stall a
 * build for minutes. A pid equal to ours that this process does not hold is a dead holder's:
 * a container's server is often pid 1 after every restart.
 */

const held = new Set<string>();

function holderOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A lock file just created holds no pid yet: its creator is writing it. */
const UNWRITTEN_GRACE_MS = 10_000;

function justCreated(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < UNWRITTEN_GRACE_MS;
  } catch {
    return false;
  }
}

/** Takes the lock or throws SourceError 'locked'; returns its release. `what` names the repository in the message. */
export function acquireSourceLock(file: string, what: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (held.has(file)) break;
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      held.add(file);
      return () => {
        held.delete(file);
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      if (holder === undefined ? justCreated(file) : holder !== process.pid && processAlive(holder))
        throw new SourceError(
          `${what} is being updated by another svc-docs process (pid ${holder ?? 'unknown'}): run again when it has finished, or delete ${file} if none is running`,
          'locked',
        );
      rmSync(file, { force: true });
    }
  }
  throw new SourceError(
    `${what} is being updated by another build in this process: run again when it has finished`,
    'locked',
  );
}
