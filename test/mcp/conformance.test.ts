import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { openEngine } from '../../src/search/engine.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { useSharedServer } from '../helpers/served-engine.js';

/**
 * The official MCP conformance suites against the real server on an ephemeral port:
 * @modelcontextprotocol/conformance 0.1.16 (its active suite, the 2025 era) and the 0.2 line
 * (devDependency `conformance-next`) with --requirements 2025-11-25 and --requirements 2026-07-28.
 * Each has its own expected-failures file; the CLI exits non-zero on any failure not listed there
 * and on any listed scenario that passes, so the lists stay exact. On top of that, the scenarios a
 * documentation server must pass are checked to have passed every check. The CLIs talk only to the
 * server's URL: no other network.
 */

interface Suite {
  name: string;
  cli: string;
  args: string[];
  expectedFailures: string;
  /** Scenarios whose every check must pass. */
  mustPass: string[];
  /** Listed scenarios where only these checks may fail (the rest of their checks must pass). */
  allowedFailedChecks?: Record<string, string[]>;
}

const modules = join(projectRoot(), 'node_modules');
const expected = (file: string) => join(projectRoot(), 'test/mcp', file);

/** Scenarios every 2025-era (session) suite must pass whole. */
const SESSION_ERA_CHECKS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const SUITES: Suite[] = [
  {
    name: '0.1.16, active suite (2025 era)',
    cli: join(modules, '@modelcontextprotocol/conformance/dist/index.js'),
    args: [],
    expectedFailures: expected('conformance-expected-failures.yml'),
    mustPass: SESSION_ERA_CHECKS,
  },
  {
    name: '0.2, --requirements 2025-11-25',
    cli: join(modules, 'conformance-next/dist/index.js'),
    args: ['--requirements', '2025-11-25'],
    expectedFailures: expected('conformance-2025-11-25-expected-failures.yml'),
    mustPass: [...SESSION_ERA_CHECKS, 'server-session-lifecycle'],
  },
  {
    name: '0.2, --requirements 2026-07-28',
    cli: join(modules, 'conformance-next/dist/index.js'),
    args: ['--requirements', '2026-07-28'],
    expectedFailures: expected('conformance-2026-07-28-expected-failures.yml'),
    mustPass: [
      'tools-list',
      'resources-list',
      'prompts-list',
      'sep-2164-resource-not-found',
      'caching',
      'http-header-validation',
      'dns-rebinding-protection',
    ],
    allowedFailedChecks: {
      'server-stateless': [
        'sep-2575-server-rejects-undeclared-capability',
        'sep-2575-missing-capability-http-400',
        'sep-2575-http-server-no-independent-requests-on-stream',
        'sep-2575-server-no-log-without-loglevel',
      ],
    },
  },
];

const server = useSharedServer(() => openEngine(bundledIndex()));
const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

function run(cli: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
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

/** Each scenario's checks, by scenario name (result folders are server-<scenario>-<timestamp>). */
function checksByScenario(outDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const dir of readdirSync(outDir)) {
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    results.set(scenario, JSON.parse(readFileSync(join(outDir, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

function entriesOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^\s*- /.test(line));
}

describe('MCP conformance suites', () => {
  it('gives every expected failure a reason', () => {
    for (const suite of SUITES) {
      const entries = entriesOf(suite.expectedFailures);
      expect(entries.length, suite.name).toBeGreaterThan(0);
      for (const entry of entries) expect(entry, suite.name).toMatch(/^\s*- [a-z0-9-]+ # \S.{10,}/);
    }
  });

  for (const suite of SUITES) {
    it(`passes ${suite.name}: every applicable scenario, and no listed one`, { timeout: 900_000 }, async () => {
      const outDir = mkdtempSync(join(tmpdir(), 'svc-docs-conformance-'));
      outDirs.push(outDir);
      const { code, output } = await run(suite.cli, [
        'server',
        '--url',
        server().url,
        ...suite.args,
        '--expected-failures',
        suite.expectedFailures,
        '--output-dir',
        outDir,
      ]);
      expect(output, output).toMatch(/=== SUMMARY ===/);
      expect(code, output).toBe(0);

      const results = checksByScenario(outDir);
      for (const scenario of suite.mustPass) {
        const checks = results.get(scenario) ?? [];
        expect(checks.length, `${scenario} produced no checks`).toBeGreaterThan(0);
        expect(
          checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING'),
          scenario,
        ).toEqual([]);
        expect(
          checks.some((c) => c.status === 'SUCCESS'),
          scenario,
        ).toBe(true);
      }
      for (const [scenario, allowed] of Object.entries(suite.allowedFailedChecks ?? {})) {
        const checks = results.get(scenario) ?? [];
        expect(checks.filter((c) => c.status === 'SUCCESS').length, `${scenario} passed no checks`).toBeGreaterThan(0);
        expect(
          checks.filter((c) => c.status === 'FAILURE' && !allowed.includes(c.id)),
          scenario,
        ).toEqual([]);
      }
    });
  }
});
