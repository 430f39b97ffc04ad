import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './index-fixture.js';

/**
 * A real git remote for tests: a bare repository (`git init --bare`) on disk, reached by its
 * file:// URL, and a working copy that commits pages and pushes them to it.
 */

export interface TestRemote {
  /** file:// URL of the bare repository. */
  url: string;
  /** Writes `files` (path → text; null deletes), commits them and pushes to `branch`; returns the commit. */
  push(files: Record<string, string | null>, branch?: string): string;
}

function git(args: string[], cwd: string): string {
  return execFileSync('git', ['-c', 'user.name=svc-docs test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * A bare repository `<name>.git` whose default branch (HEAD) is `main`, with nothing pushed yet.
 * It serves partial fetches (`--filter`) as GitHub and GitLab do, unless `filters` is false.
 */
export function testRemote(name = 'docs', filters = true): TestRemote {
  const root = tempDir('git');
  const bare = join(root, `${name}.git`);
  const work = join(root, 'work');
  git(['init', '--quiet', '--bare', bare], root);
  git(['symbolic-ref', 'HEAD', 'refs/heads/main'], bare);
  git(['config', 'uploadpack.allowFilter', String(filters)], bare);
  git(['init', '--quiet', work], root);
  return {
    url: pathToFileURL(bare).href,
    push(files, branch = 'main') {
      git(['checkout', '--quiet', '-B', branch], work);
      for (const [path, text] of Object.entries(files)) {
        const full = join(work, path);
        if (text === null) rmSync(full, { force: true });
        else {
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, text);
        }
      }
      git(['add', '--all'], work);
      git(['commit', '--quiet', '--allow-empty', '-m', 'docs'], work);
      git(['push', '--quiet', '--force', bare, `HEAD:refs/heads/${branch}`], work);
      return git(['rev-parse', 'HEAD'], work).trim();
    },
  };
}
