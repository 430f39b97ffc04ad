import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/search/engine.js';
import { bundledIndex } from '../../helpers/index-fixture.js';
import { initializeBody, MCP_HEADERS } from '../../helpers/mcp-client.js';
import { useSharedServer } from '../../helpers/served-engine.js';

/**
 * Opening and closing sessions must not leak: the heap after 10,000 sessions is the heap after
 * 1,000. A leak of even 1 KB per session would show as 9 MB; garbage-collection noise is far less.
 */

// The test process runs without --expose-gc; this turns it on at run time.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ALLOWED_GROWTH_BYTES = 4 * 1024 * 1024;

const server = useSharedServer(() => openEngine(bundledIndex()));

async function openAndClose(): Promise<void> {
  const init = await fetch(server().url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || id === null) throw new Error(`initialize answered ${init.status}`);
  const del = await fetch(server().url, {
    method: 'DELETE',
    headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
  });
  await del.text();
  if (del.status !== 200) throw new Error(`DELETE answered ${del.status}`);
}

function settledHeap(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

describe('session lifecycle memory', () => {
  it('leaves the heap flat and the session map empty after 10,000 sessions opened and closed', {
    timeout: 600_000,
  }, async () => {
    for (let i = 0; i < 1000; i++) await openAndClose();
    expect(server().sessionCount()).toBe(0);
    const after1k = settledHeap();

    for (let i = 1000; i < 10_000; i++) await openAndClose();
    expect(server().sessionCount()).toBe(0);
    const after10k = settledHeap();

    expect(after10k - after1k).toBeLessThan(ALLOWED_GROWTH_BYTES);
  });
});
