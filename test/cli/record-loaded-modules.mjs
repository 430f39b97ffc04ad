import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

/**
 * Preloaded (`node --import`) by a test: records the URL of every module the main thread loads
 * and, at exit, writes them one per line to the file LOADED_MODULES_FILE names. Worker threads
 * (which preload this too) record nothing, so that the file is the main thread's.
 */
if (isMainThread) {
  const loaded = new Set();
  registerHooks({
    load(url, context, nextLoad) {
      loaded.add(url);
      return nextLoad(url, context);
    },
  });
  process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_FILE, [...loaded].join('\n')));
}
