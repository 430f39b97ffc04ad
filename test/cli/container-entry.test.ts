import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultModelDir } from '../../src/embedding/default-model.js';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { mountPointOf, refusalMessage } from '../../src/cli/writable-folders.js';

/**
 * The image's entrypoint (src/cli/container-entry.ts) checks the folders a build writes before
 * anything else: run as another user against folders it cannot write, it exits 1 with one line
 * naming the uid:gid that needs them and the fix; given folders it owns, the real CLI builds.
 */

const NOBODY = { uid: 65534, gid: 65534 };
const root = mkdtempSync(join(tmpdir(), 'svc-docs-entry-'));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;

/** A new folder under the test's root, owned by `owner`, mode 0755. */
function folder(name: string, owner: { uid: number; gid: number }): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** The environment without the user's settings; a cache folder of its own links the checkout's model. */
function entryEnv(data: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_') && k !== 'NODE_OPTIONS'),
  );
  const cache = join(root, 'cache');
  if (!existsSync(cache)) {
    mkdirSync(cache, { mode: 0o755 });
    symlinkSync(dirname(defaultModelDir()), join(cache, 'models'));
  }
  return {
    ...env,
    SVC_DOCS_CACHE_DIR: cache,
    SVC_DOCS_INDEX: join(data, 'index'),
    SVC_DOCS_VECTOR_CACHE_DIR: join(data, 'vectors'),
  };
}

/** Runs node as uid 65534; a spawn that failed (no stdout or stderr to read) throws with why. */
function asNobody(args: string[], env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, args, {
    cwd: projectRoot(),
    env,
    ...NOBODY,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.error !== undefined)
    throw new Error(`node as uid 65534 did not run: ${run.error.message}`, { cause: run.error });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The entrypoint from source, as uid 65534, with the index and vector cache under `data`. */
function entry(args: string[], data: string) {
  const run = asNobody(['--import', 'tsx', 'src/cli/container-entry.ts', ...args], entryEnv(data));
  return { code: run.code, stderr: run.stderr, lines: run.stderr.trim().split('\n') };
}

/**
 * Why uid 65534 cannot run the checkout's sources, or undefined when it can: a clone inside a
 * folder other users cannot enter (a `mktemp -d` folder, root's 0700 home) is out of its reach,
 * and these tests then say so instead of failing on what it could not read.
 */
function unreachable(): string | undefined {
  if (!isRoot) return 'needs root to switch user';
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      'require("fs").accessSync(process.argv[1], require("fs").constants.R_OK)',
      join(projectRoot(), 'src', 'cli', 'container-entry.ts'),
    ],
    { cwd: root, ...NOBODY, encoding: 'utf8', timeout: 60_000 },
  );
  if (probe.error !== undefined) return `node cannot run as uid 65534 here (${probe.error.message})`;
  if (probe.status !== 0)
    return `uid 65534 cannot read the checkout at ${projectRoot()} (a folder above it is not open to other users)`;
  return undefined;
}

const skipReason = unreachable();
if (skipReason !== undefined && isRoot) {
  if (process.env.CI === 'true') it('runs the entrypoint as another user', () => expect.fail(skipReason));
  else console.warn(`container-entry.test.ts: the tests as another user are skipped: ${skipReason}`);
}

describe.skipIf(skipReason !== undefined)(
  `the container entrypoint as another user${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    it('refuses a root-owned data folder in one line naming the uid:gid that needs it', () => {
      const data = folder('root-data', { uid: 0, gid: 0 });
      const run = entry(['serve'], data);
      expect(run.code).toBe(1);
      expect(run.lines).toHaveLength(1);
      expect(run.lines[0]).toMatch(
        new RegExp(
          `^svc-docs: cannot write ${data}/index \\(to be created in ${data}\\): ${data} belongs to uid 0:0 and svc-docs runs as uid 65534:65534\\. `,
        ),
      );
    });

    it("names the owner of someone else's folder, to run as", () => {
      const data = folder('their-data', { uid: 2000, gid: 2000 });
      const run = entry(['index', '--corpus', join(projectRoot(), 'corpus')], data);
      expect(run.code).toBe(1);
      expect(run.lines[0]).toContain('belongs to uid 2000:2000 and svc-docs runs as uid 65534:65534');
      expect(run.lines[0]).toContain('--user 2000:2000');
    });

    it('checks nothing for serve --no-build, which never writes', () => {
      const data = folder('read-only-data', { uid: 0, gid: 0 });
      const run = entry(['serve', '--no-build'], data);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain('cannot write');
      expect(run.stderr).toContain(join(data, 'index'));
    });

    it("runs the command when the folders are the user's own: the index is built", () => {
      const data = folder('own-data', NOBODY);
      const corpus = folder('corpus/handbook', { uid: 0, gid: 0 });
      chmodSync(join(root, 'corpus'), 0o755);
      writeFileSync(join(corpus, 'runbook.md'), '# Runbook\n\n## Flamingo rollback\n\nRedeploy the previous tag.\n');
      const run = entry(['index', '--corpus', join(root, 'corpus')], data);
      expect(run.stderr).not.toContain('cannot write');
      expect(run.code).toBe(0);
      expect(existsSync(join(data, 'index', 'CURRENT'))).toBe(true);
    });
  },
);

describe('the refusal, for a folder mounted from the host', () => {
  const mountinfo = [
    '22 1 0:21 / / rw,relatime - overlay overlay rw',
    '30 22 8:1 /srv/svc\\040docs /data rw,relatime - ext4 /dev/sda1 rw',
    '31 22 8:1 /home/me/docs /corpus/my-docs ro,relatime - ext4 /dev/sda1 rw',
  ].join('\n');

  it('finds the mount point that holds a path, decoding escapes', () => {
    expect(mountPointOf('/data/index', mountinfo)).toBe('/data');
    expect(mountPointOf('/data', mountinfo)).toBe('/data');
    expect(mountPointOf('/database', mountinfo)).toBe('/');
    expect(mountPointOf('/corpus/my-docs/a', mountinfo)).toBe('/corpus/my-docs');
  });

  it('says chown for a root-owned mount, and --user for one owned by someone else', () => {
    const refusal = {
      folder: '/data/vectors',
      existing: '/data',
      owner: { uid: 0, gid: 0 },
      self: { uid: 1000, gid: 1000 },
      mountPoint: '/data',
      code: 'EACCES' as const,
    };
    expect(refusalMessage(refusal)).toBe(
      'cannot write /data/vectors (to be created in /data): /data belongs to uid 0:0 and svc-docs runs as uid 1000:1000. Give it to that user (sudo chown -R 1000:1000 <the host folder mounted at /data>)',
    );
    expect(refusalMessage({ ...refusal, owner: { uid: 501, gid: 20 } })).toMatch(
      /\(sudo chown -R 1000:1000 <the host folder mounted at \/data>\), or run the container as the folder's owner \(docker run --user 501:20 …\)$/,
    );
    expect(refusalMessage({ ...refusal, code: 'EROFS' })).toBe(
      'cannot write /data/vectors (to be created in /data): /data is mounted read-only. Mount it read-write, or serve the index it holds as it is with `serve --no-build`',
    );
  });
});
