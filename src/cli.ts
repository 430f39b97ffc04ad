#!/usr/bin/env node
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { favourMemory } from './cli/server-heap.js';
import { projectRoot } from './project-root.js';

/**
 * The `svc-docs` command. First the Node version check (scripts/check-node.cjs): this file names
 * no Node 22 API in its imports (enableCompileCache is read off the module namespace), so an older
 * Node gets that far and prints what to do instead of a SyntaxError. Then V8's compiled code of
 * every module imported below is cached on disk (Node's compile cache, in its default folder under
 * the OS temp dir): a restarted server spends less of its start compiling. The commands themselves
 * are in cli/program.ts.
 */
nodeModule.createRequire(import.meta.url)(join(projectRoot(), 'scripts', 'check-node.cjs'));
nodeModule.enableCompileCache();
// `serve`'s V8 heap settings (server-heap.ts) go first: the young generation they hold at its
// initial size would otherwise have grown while the modules below load.
if (process.argv[2] === 'serve') favourMemory();
const { main } = await import('./cli/program.js');
// The one place the environment is read: the commands get it from here.
process.exitCode = await main(process.argv, process.env);
