import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where a worker thread starts, and the Node flags it needs to load that file. */
export interface WorkerEntry {
  url: URL;
  execArgv: string[] | undefined;
}

/**
 * The entry module `name` beside the launching module (`launcherUrl`, its import.meta.url): `.ts`
 * under tsx and vitest, `.js` once compiled. A TypeScript entry needs tsx's loader in the worker
 * too, unless this process was started with it. One helper for the indexer's parse worker
 * (indexer/parse/bounded-chunk.ts), the search pool (src/serve/pool.ts) and the search page's
 * report and Markdown workers (src/observe/gap-report-thread.ts, src/web/render-thread.ts).
 */
export function workerEntry(name: string, launcherUrl: string): WorkerEntry {
  const url = new URL(`./${name}${extname(fileURLToPath(launcherUrl))}`, launcherUrl);
  if (!url.pathname.endsWith('.ts') || process.execArgv.some((arg) => arg.includes('tsx')))
    return { url, execArgv: undefined };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { url, execArgv: [...process.execArgv, '--import', tsx] };
}
