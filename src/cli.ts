#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

/**
 * The `svc-docs` command. V8's compiled code of every module imported below is cached on disk
 * (Node's compile cache, in its default folder under the OS temp dir): a restarted server spends
 * less of its start compiling. The commands themselves are in cli-program.ts.
 */
enableCompileCache();
const { main } = await import('./cli-program.js');
process.exitCode = await main(process.argv);
