import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexStatus } from '../indexer/reindex/index-status.js';
import { loadCorpus } from '../indexer/load/load-corpus.js';
import {
  IndexError,
  type LoadedEngine,
  ModelMismatchError,
  openEngine,
  SearchInputError,
  ServerOptionsError,
  SettingsError,
  startHttpServer,
  SvcDocsError,
} from '../src/api.js';
import { fixtureIndex, tempDir, writeCorpus } from './helpers/index-fixture.js';
import { SAMPLE_CORPUS } from './helpers/sample-corpus.js';

/** A caller of the API branches on an error's `code` (or its class), never on its message. */

/** The error `run` throws or rejects with. */
async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

let indexDir: string;
let engine: LoadedEngine;
beforeAll(async () => {
  indexDir = await fixtureIndex(SAMPLE_CORPUS);
  engine = await openEngine(indexDir);
});
afterAll(() => engine.close());

describe('errors with codes', () => {
  it('tells a missing index from an unreadable one', async () => {
    const missing = await caught(() => openEngine(tempDir('no-index')));
    expect(missing).toBeInstanceOf(IndexError);
    expect(missing).toMatchObject({ code: 'index_missing' });
    const damaged = tempDir('damaged-index');
    mkdirSync(join(damaged, 'build-x'));
    writeFileSync(join(damaged, 'CURRENT'), 'build-x');
    writeFileSync(join(damaged, 'build-x', 'manifest.json'), '{"formatVersion": 99}');
    const unreadable = await caught(() => openEngine(damaged));
    expect(unreadable).toMatchObject({ code: 'index_unreadable', name: 'IndexError' });
    // The problem alone, for a caller that fixes it itself: the index status builds it again.
    const { problem, message } = unreadable as IndexError;
    expect(message).toBe(`${problem}: run 'svc-docs index' to rebuild it`);
    const corpus = writeCorpus({ 'kb/a.md': '# A\n\nalpha\n' });
    expect(await indexStatus([corpus], damaged)).toEqual({ state: 'stale', reason: problem });
  });

  it('names a model mismatch, a bad search, a bad setting and a bad corpus', async () => {
    const mismatch = await caught(() => openEngine(indexDir, { model: 'some/other-model' }));
    expect(mismatch).toBeInstanceOf(ModelMismatchError);
    expect(mismatch).toMatchObject({ code: 'model_mismatch' });
    expect((mismatch as ModelMismatchError).message).toBe(
      `${(mismatch as ModelMismatchError).problem}: run 'svc-docs index --model some/other-model' or drop --model`,
    );
    const search = await caught(() => engine.search('   '));
    expect(search).toBeInstanceOf(SearchInputError);
    expect(search).toMatchObject({ code: 'invalid_search' });
    const options = await caught(() => startHttpServer({ maxResults: 0, engine: () => engine }));
    expect(options).toBeInstanceOf(ServerOptionsError);
    expect(options).toMatchObject({ code: 'invalid_setting' });
    const corpus = await caught(() => loadCorpus([join(tempDir('corpus'), 'missing')]));
    expect(corpus).toMatchObject({ code: 'invalid_corpus' });
    for (const error of [mismatch, search, options, corpus]) expect(error).toBeInstanceOf(SvcDocsError);
    expect(new SettingsError('x')).toBeInstanceOf(SvcDocsError);
  });

  it("says the port is taken with the system's error as its cause", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const error = await caught(() => startHttpServer({ port, engine: () => engine, log: () => {} }));
      expect(error).toMatchObject({ code: 'listen_failed', cause: { code: 'EADDRINUSE' } });
    } finally {
      taken.close();
    }
  });
});
