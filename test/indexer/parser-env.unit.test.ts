import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parserEnv } from '../../indexer/parse/parser-process.js';

describe("a parser process's environment", () => {
  it("passes on the indexer's compile cache, which a child does not inherit", () => {
    const before = nodeModule.getCompileCacheDir();
    if (before === undefined) expect(parserEnv().NODE_COMPILE_CACHE).toBe(process.env.NODE_COMPILE_CACHE);
    const dir = join(tmpdir(), 'svc-docs-test-compile-cache');
    nodeModule.enableCompileCache(before === undefined ? dir : undefined);
    const expected = before === undefined ? dir : join(before, '..');
    expect(parserEnv().NODE_COMPILE_CACHE).toBe(expected);
    expect(parserEnv().PATH).toBe(process.env.PATH);
  });
});
