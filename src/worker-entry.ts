import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a worker thread's entry is and how to start it: the file `name` beside the caller
 * (`base` is its import.meta.url), .ts under tsx and vitest, .js once compiled. A TypeScript
 * entry needs tsx's loader in the worker too, unless the process already runs under it.
 */
export function workerEntry(name: string, base: string): { url: URL; execArgv: string[] | undefined } {
  const url = new URL(`./${name}${extname(fileURLToPath(base))}`, base);
  if (!url.pathname.endsWith('.ts') || process.execArgv.some((arg) => arg.includes('tsx')))
    return { url, execArgv: undefined };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { url, execArgv: [...process.execArgv, '--import', tsx] };
}
