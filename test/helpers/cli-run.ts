import { mkdtempSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ServeNotReadyError } from '../../bench/lib/serve-child.js';
import { cliEnv, type Finished, finished, killChildren, spawnCli, startServe } from './cli.js';

/**
 * More of what a user sees from the real `svc-docs` (test/helpers/cli.ts runs it): a cache folder
 * where nothing was served or indexed yet, and `serve` run until ready, then stopped.
 */

export { cliEnv, type Finished, killChildren };

/** `svc-docs <args>` to its exit; a build on a loaded machine may take more than cli.ts's minute. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return finished(spawnCli(args, env), 120_000);
}

/** A new, empty cache folder with the checkout's built model linked in: nothing served or indexed yet. */
export function freshCache(): string {
  const cache = mkdtempSync(join(inject('testTempRoot'), 'cache-'));
  symlinkSync(join(inject('testCacheDir'), 'models'), join(cache, 'models'));
  return cache;
}

/** Lines of text that are not blank. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** `svc-docs serve <args>` run until its log says it is ready, then stopped with SIGTERM: what it printed and its exit. */
export async function serveUntilReady(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  try {
    return await (await startServe(['--port', '0', ...args], env)).stop();
  } catch (error) {
    if (error instanceof ServeNotReadyError) return error.exit;
    throw error;
  }
}
