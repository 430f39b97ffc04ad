import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/mcp/http.js';
import { projectRoot } from '../../src/paths.js';
import { openEngine } from '../../src/search/engine.js';
import type { SearchEngine } from '../../src/search/types.js';
import { bundledIndex } from '../helpers/index-fixture.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) against
 * the real server on an ephemeral port. The CLI exits non-zero on any failure not listed in the
 * expected-failures file and on any listed scenario that passes, so the list stays exact. It
 * talks only to the server's URL: no other network.
 */

const CLI = join(projectRoot(), 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const EXPECTED_FAILURES = join(projectRoot(), 'test/mcp/conformance-expected-failures.yml');

/** Scenarios a one-tool server must pass. */
const MUST_PASS = ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'tools-call-error', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

let engine: SearchEngine & { close(): Promise<void> };
let server: RunningServer;
let outDir: string;

beforeAll(async () => {
  engine = await openEngine(bundledIndex());
  server = await startHttpServer({ port: 0, engine: () => engine, log: () => undefined });
  outDir = mkdtempSync(join(tmpdir(), 'svc-docs-conformance-'));
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describe('MCP conformance suite', () => {
  it('gives every expected failure a reason', () => {
    const entries = readFileSync(EXPECTED_FAILURES, 'utf8')
      .split('\n')
      .filter((line) => /^\s*- /.test(line));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry).toMatch(/^\s*- [a-z0-9-]+ # \S.{10,}/);
  });

  it('passes every scenario that applies to a one-tool server', async () => {
    const { code, output } = await run(['server', '--url', server.url, '--expected-failures', EXPECTED_FAILURES, '--output-dir', outDir]);
    expect(output, output).toMatch(/=== SUMMARY ===/);
    expect(code, output).toBe(0);

    const results = new Map<string, Check[]>();
    for (const dir of readdirSync(outDir)) {
      const scenario = MUST_PASS.find((name) => dir.startsWith(`server-${name}-`));
      if (scenario) results.set(scenario, JSON.parse(readFileSync(join(outDir, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    for (const scenario of MUST_PASS) {
      const checks = results.get(scenario) ?? [];
      expect(checks.length, `${scenario} produced no checks`).toBeGreaterThan(0);
      expect(checks.filter((c) => c.status === 'FAILURE'), scenario).toEqual([]);
      expect(checks.some((c) => c.status === 'SUCCESS'), scenario).toBe(true);
    }
  });
});
