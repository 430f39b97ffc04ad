import { expect } from 'vitest';
import { logEntries } from '../helpers/serve-log.js';
import { limited, linesOf, runCli as runCliNow, type CliRun } from './helpers.js';

/**
 * `svc-docs serve --no-build` refusing an index or a model it cannot serve, as
 * test/reliability/index-faults.test.ts and model-faults.test.ts check it: one line on stderr,
 * exit 1, never listening.
 */

// The cases run concurrently; two CLI processes at a time keep a small machine responsive.
const slot = limited(2);
const runCli = (...args: Parameters<typeof runCliNow>): Promise<CliRun> => slot(() => runCliNow(...args));

export const FILES = {
  'kb/refunds.md':
    '# Refunds\n\nA refund returns money to the customer.\n\n## Partial refunds\n\nRefund part of an order.\n',
  'kb/webhooks.md': '# Webhooks\n\nVerify the signature of every webhook event.\n',
};

/** Runs `serve --no-build` on `index` and checks the refusal: exit 1, one stderr line, nothing served. */
export async function expectRefusal(
  index: string,
  line: RegExp,
  env: Record<string, string> = {},
  todo: RegExp = /./,
): Promise<void> {
  const run = await runCli(['serve', '--no-build', '--index', index, '--port', '0'], { env, timeoutMs: 90_000 });
  expect(run.signal).toBeNull();
  expect(run.code).toBe(1);
  // Nothing served: the log holds the start and the failed start (the same line), never a listening server.
  const log = logEntries(run.stdout);
  expect(log.map((e) => e.event)).toEqual(['start', 'start-failed']);
  const lines = linesOf(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-docs: /);
  expect(lines[0]).toMatch(line);
  expect(lines[0]).toMatch(todo);
  expect(`svc-docs: ${String(log[1]!.error)}`).toBe(lines[0]);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** What to do, for an index: rebuild it. */
export const REBUILD = /run 'svc-docs index'/;
