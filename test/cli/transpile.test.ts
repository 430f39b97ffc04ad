import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { cliEnv, finished, killChildren, searchPaths, startServe } from '../helpers/cli.js';
import { bundledIndex } from '../helpers/index-fixture.js';

afterAll(killChildren);

/** `npm start` runs what scripts/transpile.mjs writes: the whole CLI, search workers included. */

describe("npm start's build (scripts/transpile.mjs)", () => {
  it('transpiles the sources into a CLI that serves searches, search workers included', async () => {
    // Inside the package, so the transpiled files resolve node_modules and the project root as dist/ does.
    mkdirSync(join(projectRoot(), '.cache'), { recursive: true });
    const out = mkdtempSync(join(projectRoot(), '.cache', 'transpiled-'));
    try {
      const transpiled = await finished(
        spawn(process.execPath, ['scripts/transpile.mjs', out], {
          cwd: projectRoot(),
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      expect(transpiled.code, transpiled.stderr).toBe(0);
      const args = ['--port', '0', '--no-build', '--index', bundledIndex()];
      const server = await startServe(args, cliEnv(), [join(out, 'src', 'cli.js')]);
      expect(await searchPaths(server.url, 'rate limits')).toContain('svc-platform/limits.md');
      expect((await server.stop()).code).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
