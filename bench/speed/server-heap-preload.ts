import { favourMemory } from '../../src/cli/server-heap.js';

/**
 * Preloaded (`node --import`) into bench/speed/memory-probe.js: applies the server's V8 settings before
 * the probe's imports load, as src/cli.ts does for `svc-docs serve`.
 */
favourMemory();
