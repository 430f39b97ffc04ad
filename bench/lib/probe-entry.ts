/**
 * Runs a probe's `main` when the process was started on that probe's compiled file (`script`,
 * e.g. `scale/scale-probe.js`), and not when the benchmark merely imports its types. A failure prints
 * its stack and exits 1, which the parent reports.
 */
export function runIfEntry(script: string, main: () => Promise<void>): void {
  if (!process.argv[1]?.endsWith(script)) return;
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
