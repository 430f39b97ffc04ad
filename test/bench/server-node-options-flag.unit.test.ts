import { describe, expect, it } from 'vitest';
import { serverNodeOptionsFlag } from '../../bench/lib/child-process.js';
import { SERVER_NODE_OPTIONS } from '../../src/cli/server-heap.js';

/** `--server-node-options=a,b` for the benchmarks that spawn a server: heap settings chosen by measurement. */
describe('--server-node-options', () => {
  it('gives the spawned server those Node options, or the shipped ones when absent', () => {
    const argv = [
      'node',
      'run.ts',
      '--parts=abuse',
      '--server-node-options=--min-semi-space-size=16,--single-threaded-gc',
    ];
    expect(serverNodeOptionsFlag(argv)).toEqual(['--min-semi-space-size=16', '--single-threaded-gc']);
    expect(serverNodeOptionsFlag(['node', 'run.ts', '--server-node-options='])).toEqual([]);
    expect(serverNodeOptionsFlag(['node', 'run.ts', '--parts=http'])).toEqual(SERVER_NODE_OPTIONS);
  });

  it('refuses a value that is not a Node option, naming the flag', () => {
    expect(() => serverNodeOptionsFlag(['--server-node-options=16'])).toThrow(
      /--server-node-options takes Node options/,
    );
  });
});
