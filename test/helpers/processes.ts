import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether a process with this pid is still running (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of the process that wrote an index's current build (builds are named with it). */
export function buildWriter(indexDir: string): number {
  return Number(/^build-\w+-(\d+)-/.exec(readFileSync(join(indexDir, 'CURRENT'), 'utf8').trim())?.[1]);
}
