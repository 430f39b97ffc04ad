import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

/**
 * Preloaded (`node --import`) by a test: records the URL of every module the process loads and,
 * at exit, writes them one per line to the file LOADED_MODULES_FILE names.
 */
const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_FILE, [...loaded].join('\n')));
