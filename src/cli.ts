#!/usr/bin/env node
import { enableCompileCache } from 'node:module';
import { favourMemory } from './cli/server-heap.js';

/**
 * The `svc-docs` command. V8's compiled code of every module imported below is cached on disk
 * (Node's compile cache, in its default folder under the OS temp dir): a restarted server spends
 * less of its start compiling. The commands themselves are in cli-program.ts.
 */
enableCompileCache();
// `serve`'s V8 heap settings (server-heap.ts) go first: the young generation they hold at its
// initial size would otherwise have grown while the modules below load.
if (process.argv[2] === 'serve') favourMemory();
const { main } = await import('./cli/program.js');
process.exitCode = await main(process.argv);
