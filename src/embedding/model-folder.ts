import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cachedDigest } from './digest-cache.js';
import { processAlive } from '../process-alive.js';

/**
 * A generated model folder that is either complete or absent: it is built in a temporary sibling
 * and renamed into place, and provenance.json (written last) lists the sha256 of every file.
 */

const PROVENANCE_FILE = 'provenance.json';

/** What a builder records; `files` maps each relative path to its sha256. */
export interface Provenance {
  builderVersion: number;
  files: Record<string, string>;
  [key: string]: unknown;
}

interface EnsureFolderOptions {
  /** False when the folder was built by another builder version or with other settings. */
  isCurrent: (provenance: Provenance) => boolean;
  /** Writes a complete folder (provenance.json included) into the given empty path. */
  build: (tmpDir: string) => Promise<void>;
  log: (line: string) => void;
}

/** A lock older than this whose owner cannot be checked (another host) is taken to be abandoned. */
const FOREIGN_LOCK_MAX_AGE_MS = 60 * 60 * 1000;
const UNREADABLE_LOCK_MAX_AGE_MS = 10_000;
const LOCK_POLL_MS = 200;

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Why `dir` is not a complete, current build; undefined when it is. */
export function folderProblem(dir: string, isCurrent: (provenance: Provenance) => boolean): string | undefined {
  if (!existsSync(dir)) return 'it does not exist';
  let provenance: Provenance;
  try {
    provenance = JSON.parse(readFileSync(join(dir, PROVENANCE_FILE), 'utf8')) as Provenance;
  } catch {
    return `it has no readable ${PROVENANCE_FILE}`;
  }
  const files: unknown = provenance.files;
  if (typeof files !== 'object' || files === null || Object.values(files).some((v) => typeof v !== 'string')) {
    return `its ${PROVENANCE_FILE} lists no file checksums`;
  }
  if (!isCurrent(provenance)) return 'it was built by another builder version or with other settings';
  for (const [path, sum] of Object.entries(files as Record<string, string>)) {
    const full = join(dir, path);
    if (!existsSync(full)) return `${path} is missing`;
    if (cachedDigest(dir, `sha256 ${path}`, [path], () => sha256File(full)) !== sum)
      return `${path} does not match its checksum`;
  }
  return undefined;
}

/**
 * Makes `dir` a complete, current build. One process builds at a time (a lock file beside the
 * folder; the others wait, then find it built), and the finished folder is renamed into place,
 * so a crash never leaves a half-written folder that looks complete.
 */
export async function ensureModelFolder(dir: string, options: EnsureFolderOptions): Promise<void> {
  if (folderProblem(dir, options.isCurrent) === undefined) return;
  mkdirSync(dirname(dir), { recursive: true });
  await withLock(dir, options.log, async () => {
    const problem = folderProblem(dir, options.isCurrent);
    if (problem === undefined) return; // built by the process we waited for
    if (existsSync(dir)) options.log(`${dir} needs a rebuild: ${problem}`);
    removeLeftovers(dir);
    const tmp = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await options.build(tmp);
      const built = folderProblem(tmp, options.isCurrent);
      if (built !== undefined)
        throw new Error(`the model just built in ${tmp} is not complete (${built}); this is a bug in the builder`);
      install(tmp, dir, options.isCurrent);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

function install(tmp: string, dir: string, isCurrent: (provenance: Provenance) => boolean): void {
  if (existsSync(dir)) {
    const old = `${dir}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(dir, old);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    rmSync(old, { recursive: true, force: true });
  }
  try {
    renameSync(tmp, dir);
  } catch (error) {
    // Another builder (one that broke an abandoned lock) got there first: theirs is as good.
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && folderProblem(dir, isCurrent) === undefined) return;
    throw error;
  }
}

async function withLock(dir: string, log: (line: string) => void, fn: () => Promise<void>): Promise<void> {
  const lockPath = `${dir}.lock`;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname() }), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockIsAbandoned(lockPath)) {
      log(`removing the abandoned lock ${lockPath}`);
      rmSync(lockPath, { force: true });
      continue;
    }
    if (!announced) log(`waiting for another process that is building ${dir} (lock: ${lockPath})`);
    announced = true;
    await sleep(LOCK_POLL_MS);
  }
  try {
    await fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

function lockIsAbandoned(lockPath: string): boolean {
  let owner: { pid?: unknown; host?: unknown };
  let ageMs = 0;
  try {
    ageMs = Date.now() - statSync(lockPath).mtimeMs;
    owner = JSON.parse(readFileSync(lockPath, 'utf8')) as typeof owner;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false; // just released: retry at once
    // Unreadable: being written this instant, or its writer died between creating and writing it.
    return ageMs > UNREADABLE_LOCK_MAX_AGE_MS;
  }
  if (owner.host === hostname() && typeof owner.pid === 'number') return !processAlive(owner.pid);
  return ageMs > FOREIGN_LOCK_MAX_AGE_MS;
}

/** Temporary siblings of builders that died (only called while holding the lock). */
function removeLeftovers(dir: string): void {
  const parent = dirname(dir);
  const pattern = new RegExp(`^${escapeRegExp(basename(dir))}\\.(building|old)-(\\d+)-[0-9a-f]+$`);
  for (const name of readdirSync(parent)) {
    const match = pattern.exec(name);
    if (match && !processAlive(Number(match[2]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
