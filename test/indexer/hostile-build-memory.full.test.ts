import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * A corpus with every hostile include and format of issue 40 (bench/abuse/hostile-corpus.ts) builds
 * in a child process, skipping what it must, with a peak RSS (VmHWM, worker threads included) of
 * at most 1 GiB: the parse workers share one heap budget (indexer/parse/chunker-pool.ts), where
 * two of 512 MB each could hold more. The child runs under tsx, whose loader adds to its RSS.
 * Memory, not wall-clock: the bound holds on a machine of any speed. In the full tier: the build
 * parses several documents to their 20 s CPU limit.
 */

interface HostileBuild {
  documents: number;
  skipped: string[];
  peakMB: number;
}

describe('a build of the hostile corpus', () => {
  it('stays under 1 GiB of RSS and skips what it must', { timeout: 1_800_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/abuse/hostile-corpus.ts'],
      { cwd: projectRoot(), maxBuffer: 16 * 1024 * 1024 },
    );
    const build = JSON.parse(stdout.trim().split('\n').at(-1)!) as HostileBuild;
    expect(build.peakMB).toBeGreaterThan(0);
    expect(build.peakMB).toBeLessThanOrEqual(1024);
    // The ordinary page and what could be read are indexed; the costliest formats are left out.
    expect(build.documents).toBeGreaterThan(100);
    expect(build.skipped).toEqual(expect.arrayContaining(['Hostile/deep.html']));
  });
});
