import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../../src/process-alive.js';

/**
 * What killed or finished builds leave behind, removed without touching anything a live process
 * or a running server may still use. Every leftover is named after the process that wrote it, so
 * "abandoned" means "its writer is gone", never "it looks old".
 */

/** The writer's pid in `build-<time>-<pid>-<random>`; older builds carry none. */
const BUILD_PID = /^build-[^-]+-(\d+)-[0-9a-f]+$/;
/** Temporary build folders and CURRENT pointers. */
const INDEX_TEMP_PID = [/^\.tmp-(\d+)-/, /^\.CURRENT\.(\d+)\.tmp$/];
/** Temporary files of an atomic save (`<file>.<pid>.tmp`), such as the vector cache's. */
const FILE_TEMP_PID = /\.(\d+)\.tmp$/;

function writerAlive(entry: string, pattern: RegExp, otherThanThis = false): boolean {
  const m = pattern.exec(entry);
  if (m === null) return false;
  const pid = Number(m[1]);
  return !(otherThanThis && pid === process.pid) && processAlive(pid);
}

/** Temp folders and pointer files of builds whose process is gone (killed mid-build). */
export async function removeAbandonedTemps(indexDir: string): Promise<void> {
  for (const entry of await readdir(indexDir)) {
    const pattern = INDEX_TEMP_PID.find((p) => p.test(entry));
    if (pattern && !writerAlive(entry, pattern)) await rm(join(indexDir, entry), { recursive: true, force: true });
  }
}

/**
 * Keeps the builds named in `keep` (the new current one and the one it replaced, which a server
 * may still be reading) and builds whose writer is still running (it may be about to switch to
 * its build; this process builds one at a time). Everything else goes, including an orphan: a build renamed into place by an
 * indexer killed before it switched CURRENT, which no server ever loaded.
 */
export async function removeOldBuilds(indexDir: string, keep: (string | undefined)[]): Promise<void> {
  for (const entry of await readdir(indexDir)) {
    if (!entry.startsWith('build-') || keep.includes(entry) || writerAlive(entry, BUILD_PID, true)) continue;
    await rm(join(indexDir, entry), { recursive: true, force: true });
  }
}

/** `*.<pid>.tmp` files in `dir` whose writer is gone (a save killed before its rename). */
export async function removeDeadTempFiles(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (FILE_TEMP_PID.test(entry) && !writerAlive(entry, FILE_TEMP_PID)) await rm(join(dir, entry), { force: true });
  }
}
