import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Whether this process can write the folders a build writes (the index, the vector cache), checked
 * before anything else so that a host folder mounted into a container with the wrong owner gets
 * one line naming the user that needs it and the command that fixes it, not a bare
 * `EACCES: permission denied, mkdir '/data/vectors'` after the model has loaded.
 */

export class FolderNotWritableError extends Error {
  override readonly name = 'FolderNotWritableError';
  constructor(
    message: string,
    /** EACCES: the folder's owner and mode refuse this user; EROFS: it is on a read-only mount. */
    readonly code: 'EACCES' | 'EROFS',
  ) {
    super(message);
  }
}

interface Ids {
  uid: number;
  gid: number;
}

/** What refused a write, as the message needs it. */
interface Refusal {
  /** The folder that was to be written. */
  folder: string;
  /** The nearest folder that exists at or above it: the one whose permissions decide. */
  existing: string;
  owner: Ids;
  self: Ids;
  /** Where the filesystem holding `existing` is mounted; '/' when it is the container's own. */
  mountPoint: string;
  code: 'EACCES' | 'EROFS';
}

const ids = ({ uid, gid }: Ids) => `${uid}:${gid}`;

/** The one line for a refusal: who needs the folder, and the command that gives it to them. */
export function refusalMessage(refusal: Refusal): string {
  const { folder, existing, owner, self, mountPoint } = refusal;
  const what = folder === existing ? folder : `${folder} (to be created in ${existing})`;
  if (refusal.code === 'EROFS')
    return `cannot write ${what}: ${mountPoint} is mounted read-only. Mount it read-write, or serve the index it holds as it is with \`serve --no-build\``;
  const whose = `${existing} belongs to uid ${ids(owner)} and svc-docs runs as uid ${ids(self)}`;
  const fix =
    mountPoint === '/'
      ? `Mount a folder that uid ${ids(self)} can write there (docker run -v <host folder>:${existing} …)`
      : `Give it to that user (sudo chown -R ${ids(self)} <the host folder mounted at ${mountPoint}>)`;
  // Running as root to write a root-owned folder is not advice worth giving.
  const asOwner =
    owner.uid === 0 ? '' : `, or run the container as the folder's owner (docker run --user ${ids(owner)} …)`;
  return `cannot write ${what}: ${whose}. ${fix}${asOwner}`;
}

/** The nearest folder that exists at or above `path`: where a mkdir -p would write first. */
function nearestExisting(path: string): string {
  let dir = resolve(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The mount point holding `path`: the longest one in /proc/self/mountinfo above it ('/' without one). */
export function mountPointOf(path: string, mountinfo: string): string {
  const points = mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined)
    // Octal escapes (\040 for a space) are how mountinfo writes special characters.
    .map((point) =>
      point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))),
    );
  const holding = points.filter((point) => point === '/' || path === point || path.startsWith(`${point}/`));
  return holding.reduce((longest, point) => (point.length > longest.length ? point : longest), '/');
}

function readMountinfo(): string {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
}

/** Throws FolderNotWritableError for the first of `folders` this process cannot write (or create). */
export function checkWritable(folders: readonly string[]): void {
  for (const folder of folders) {
    const existing = nearestExisting(folder);
    try {
      accessSync(existing, constants.W_OK | constants.X_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code === 'EROFS' ? 'EROFS' : 'EACCES';
      const stats = statSync(existing);
      const refusal: Refusal = {
        folder: resolve(folder),
        existing,
        owner: { uid: stats.uid, gid: stats.gid },
        self: { uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1 },
        mountPoint: mountPointOf(existing, readMountinfo()),
        code,
      };
      throw new FolderNotWritableError(refusalMessage(refusal), code);
    }
  }
}
