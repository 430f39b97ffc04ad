import { spawn } from 'node:child_process';
import type { CommonSettings } from './config.js';

/**
 * `serve --watch` rebuilds the index in a child process running `svc-docs index`: parsing and
 * embedding a corpus takes seconds of CPU, and in the server's own process it would stall every
 * request for that long. The child writes a new build and switches CURRENT; the server's live
 * reload picks it up as it does for any other `svc-docs index`.
 */

export class ReindexError extends Error {
  override readonly name = 'ReindexError';
}

/** The `index` command line that rebuilds what `settings` describe. */
export function reindexArguments(settings: CommonSettings): string[] {
  const args = ['index', '--out', settings.indexDir];
  for (const dir of settings.corpusDirs) args.push('--corpus', dir);
  if (settings.model !== undefined) args.push('--model', settings.model);
  if (settings.allowRemoteModels) args.push('--allow-remote-models');
  if (settings.vectorCacheDir !== undefined) args.push('--vector-cache', settings.vectorCacheDir);
  return args;
}

/**
 * Runs the reindex as this same CLI (same Node, same loader flags, same environment, so the
 * per-file limits and cache folder carry over) and resolves when it has finished; its output
 * lines go to `log`.
 */
export function reindexInChildProcess(settings: CommonSettings, log: (line: string) => void): Promise<void> {
  const script = process.argv[1];
  if (script === undefined)
    return Promise.reject(new ReindexError('cannot tell which script is running to start the reindex'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, ...reindexArguments(settings)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') log(line);
    };
    child.stdout.on('data', forward);
    child.stderr.on('data', forward);
    child.once('error', (error) => reject(new ReindexError(`could not start the reindex: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new ReindexError(
            `the reindex ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}; the previous index keeps serving`,
          ),
        );
    });
  });
}
