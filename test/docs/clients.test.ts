import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../src/search/engine.js';
import { markedBlocks } from '../helpers/doc-blocks.js';
import { bundledIndex } from '../helpers/index-fixture.js';
import { useServedEngine } from '../helpers/served-engine.js';

/**
 * docs/clients.md's curl examples, run as written with bash and curl against a real server that
 * requires a token: the 2025-era session (initialize, initialized, SearchDocs, DELETE) and the
 * 2026-07-28 stateless call. The page's setup block is replaced by this server's URL and token.
 */

const TOKEN = 'clients-doc-test-token-0123456789';
const { serve } = useServedEngine(() => openEngine(bundledIndex()));
const blocks = markedBlocks('clients.md', 'clients-test');
const work = mkdtempSync(join(tmpdir(), 'svc-docs-clients-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One block in bash (-e, pipefail) with URL and TOKEN set; rejects when any command fails. */
async function runBlock(name: string, url: string): Promise<string> {
  const code = blocks.get(name);
  if (code === undefined) throw new Error(`docs/clients.md has no block marked clients-test: ${name}`);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', code], {
    cwd: work,
    env: { ...process.env, URL: url, TOKEN },
    timeout: 60_000,
  });
  return stdout;
}

describe('docs/clients.md, curl', () => {
  it('tells the reader to set URL and TOKEN', () => {
    expect(blocks.get('setup')).toMatch(/^URL=http:\/\/localhost:8080\/docs\nTOKEN=/);
  });

  // The session block's initialize answer names 2025-11-25; the stateless call's result says it is complete.
  it.each([
    ['session', 'a 2025-era session: initialize, search, DELETE', '"protocolVersion":"2025-11-25"'],
    ['stateless', 'a 2026-07-28 call with no session', '"resultType":"complete"'],
  ])('runs the %s block: %s', async (name, _what, marker) => {
    const server = await serve({ authToken: TOKEN });
    const out = await runBlock(name, server.url);
    expect(out).toContain(marker);
    expect(out).toContain('Source: svc-platform\\nPath: limits.md');
    // No session is left open: the session block ended its own with DELETE.
    expect(server.sessionCount()).toBe(0);
  });
});
