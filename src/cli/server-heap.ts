import { setFlagsFromString } from 'node:v8';

/**
 * V8 heap settings for `svc-docs serve`, trading some GC time for memory. With V8's defaults a
 * served Argo CD index grew to ~370 MB after 32 sessions (the memory goal is 3× the 71 MB of index
 * and model on disk): the main thread's young generation grew to 128 MB under a burst of requests
 * and was kept, and its old generation grew to 4× what is live before a full GC. With these two,
 * 224–242 MB (bench `--parts=http`, three interleaved pairs on a busy 2-core machine; 32 sessions
 * still served 2.0–3.1× one session's calls/s; server CPU per call rose in two pairs of three;
 * bench/speed/memory-probe.ts shows where the rest goes).
 *
 * - `--semi-space-growth-factor=1`: the young generation keeps its initial size (two 1 MB
 *   semi-spaces) in every thread.
 * - `--heap-growing-percent=50`: after a full GC the old generation may grow by half of what is
 *   live, not up to 4×. (`--optimize-for-size` grows it by less still, and reached ~195 MB, but
 *   cost ~1.7 ms more server CPU per call at 32 sessions: 32-session throughput fell to 1.0–1.5×
 *   one session's, under the 1.7× the throughput goal keeps.)
 *
 * They are set at run time, not as node options, so that they hold however the server is started
 * (npm start, the svc-docs bin, the container image, `node dist/src/cli.js serve`, the benchmark),
 * and in the worker threads started afterwards. V8 reads both whenever it resizes a heap, not only
 * when it creates one; --max-semi-space-size, by contrast, does nothing once the main thread's
 * heap exists (measured).
 */
export const SERVER_V8_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=50'] as const;

/**
 * Node options on the command line that starts `svc-docs serve` (npm start, the container's
 * entrypoint, the benchmark's server): the main thread's young generation fixed at two 8 MB
 * semi-spaces from the start, where SERVER_V8_FLAGS alone hold it at V8's initial 1 MB. Garbage
 * collection is the largest share of a served call's CPU, most of it the main thread's scavenges of
 * a call's short-lived garbage (the renderer's, the protocol's). Only the command line can size it:
 * set at run time the sizes do nothing to a heap that exists, and a growth factor switched back
 * to 1 once the size is reached overshoots it (docs/benchmarks.md, the protocol path, has both
 * measurements and the size's: CPU per call and RSS after 100 reloads).
 */
export const SERVER_NODE_OPTIONS = ['--min-semi-space-size=8', '--max-semi-space-size=8'] as const;

/** Applies SERVER_V8_FLAGS to this process (all its threads): for `svc-docs serve`, as the process starts. */
export function favourMemory(): void {
  for (const flag of SERVER_V8_FLAGS) setFlagsFromString(flag);
}
