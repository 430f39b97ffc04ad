import { describe, expect, it } from 'vitest';
import { searchThreadsFlag } from '../../bench/lib/child-process.js';

/** `--search-threads=<n>` for the benchmarks that spawn a server (http part, worst-request). */
describe('--search-threads', () => {
  it('gives the spawned server that many workers, or leaves the default when absent', () => {
    expect(searchThreadsFlag(['node', 'run.ts', '--parts=http', '--search-threads=2'])).toEqual({ searchThreads: 2 });
    expect(searchThreadsFlag(['node', 'run.ts', '--search-threads=0'])).toEqual({ searchThreads: 0 });
    expect(searchThreadsFlag(['node', 'run.ts', '--parts=http'])).toEqual({});
  });

  it('refuses anything but a whole number, naming the flag', () => {
    for (const bad of ['', 'two', '1.5', '-1'])
      expect(() => searchThreadsFlag([`--search-threads=${bad}`])).toThrow(/--search-threads must be a whole number/);
  });
});
