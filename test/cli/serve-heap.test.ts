import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SERVER_NODE_OPTIONS } from '../../src/cli/server-heap.js';
import { projectRoot } from '../../src/project-root.js';
import { bundledIndex, tempDir } from '../helpers/index-fixture.js';
import { connectClient } from '../helpers/mcp-client.js';
import type { ServeChild } from '../../bench/lib/serve-child.js';
import { FROM_SOURCE, killChildren, startServe } from '../helpers/cli.js';

/**
 * The V8 settings `svc-docs serve` sets for itself (src/cli/server-heap.ts), seen from outside: the
 * real CLI serves a burst of searches, then Node's diagnostic report (written on SIGUSR2) shows
 * its main thread's heap. With V8's defaults the young generation grows past 16 MB in that burst.
 */

afterAll(killChildren);

interface HeapSpace {
  memorySize: number;
  capacity: number;
}

/** `svc-docs serve` from source, with Node writing a diagnostic report into `reports` on SIGUSR2. */
function serveWithReports(reports: string): Promise<ServeChild> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_DOCS_')));
  return startServe(
    ['--port', '0', '--no-build', '--index', bundledIndex()],
    // The tests' own cache folder: serve records the docs it served there.
    // Eight sessions searching at once from one address: over a client's default share, which
    // this test is not about.
    {
      ...env,
      NODE_OPTIONS: '',
      SVC_DOCS_CACHE_DIR: inject('testCacheDir'),
      SVC_DOCS_MAX_REQUESTS_PER_CLIENT: '64',
    },
    ['--report-on-signal', `--report-directory=${reports}`, ...FROM_SOURCE],
  );
}

/** The main thread's heap spaces from the report the child writes on SIGUSR2. */
async function reportedHeap(pid: number, reports: string): Promise<Record<string, HeapSpace>> {
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    const [file] = readdirSync(reports).filter((f) => f.endsWith('.json'));
    if (file && existsSync(join(reports, file))) {
      try {
        const report = JSON.parse(readFileSync(join(reports, file), 'utf8')) as {
          javascriptHeap: { heapSpaces: Record<string, HeapSpace> };
        };
        return report.javascriptHeap.heapSpaces;
      } catch {
        // Still being written.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('svc-docs serve: V8 heap settings', () => {
  it("keeps the main thread's young generation at its initial 2 MB through a burst of searches", async () => {
    const reports = tempDir('serve-heap-reports');
    const server = await serveWithReports(reports);
    const { url } = server;
    const sessions = await Promise.all(Array.from({ length: 8 }, () => connectClient(url)));
    const terms = ['rate limits', 'verify webhook signature', 'refund a payment', 'pagination cursor'];
    await Promise.all(
      sessions.map(async ({ client }, s) => {
        for (let n = 0; n < 40; n++) {
          const result = (await client.callTool({
            name: 'SearchDocs',
            arguments: { searchTerm: terms[(s + n) % terms.length]! },
          })) as CallToolResult;
          expect(result.isError).toBeFalsy();
        }
      }),
    );
    await Promise.all(sessions.map((s) => s.close()));
    const heap = await reportedHeap(server.pid, reports);
    expect(heap.new_space!.capacity).toBeLessThanOrEqual(2 * 2 ** 20);
    await server.stop();
  });
});

describe("the server's Node options (SERVER_NODE_OPTIONS)", () => {
  it('are on the command lines that start a server: npm start and the container', () => {
    const start = (
      JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    expect(start).toContain(`node ${SERVER_NODE_OPTIONS.join(' ')} dist/src/cli.js serve`);
    const entrypoint = /^ENTRYPOINT (.+)$/m.exec(readFileSync(join(projectRoot(), 'Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(entrypoint!)).toEqual(['node', ...SERVER_NODE_OPTIONS, 'dist/src/cli/container-entry.js']);
  });

  it("give the main thread's young generation its size from the start, with the server's run-time flags applied", async () => {
    const heap = join(projectRoot(), 'src', 'cli', 'server-heap.ts');
    const child = spawn(
      process.execPath,
      [
        ...SERVER_NODE_OPTIONS,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { favourMemory } = await import(${JSON.stringify(heap)}); favourMemory(); const v8 = await import('node:v8'); console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`,
      ],
      { cwd: projectRoot(), env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    // The semi-space in use is 8 MB from the start (1 MB without the options).
    expect(Number(stdout.trim())).toBe(8 * 2 ** 20);
  });
});

describe('SearchPool.started', () => {
  it('resolves once the workers run, with no index loaded, and keeps the process alive until then', async () => {
    // In a process of its own: an idle worker does not keep a process alive, so a wait that did
    // not count as work would end the process before the line is printed.
    const script = join(tempDir('pool-started'), 'started.mts');
    const pool = JSON.stringify(join(projectRoot(), 'src', 'serve', 'pool.ts'));
    writeFileSync(
      script,
      `import { SearchPool } from ${pool};\nconst pool = new SearchPool(2);\nawait pool.started();\nconsole.log('started');\nawait pool.close();\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: projectRoot(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'started\n' });
  });
});
