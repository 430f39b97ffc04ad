import { parentPort } from 'node:worker_threads';
import type { ChunkOptions } from '../chunk/chunk.js';
import { chunkErrorText, chunkFile, type CorpusFile, prepareFile } from './chunk-file.js';

/**
 * Worker thread entry: chunks one document per message. Parsing runs here so that the indexer
 * can stop a parse that takes too long (Worker.terminate interrupts running code; a timer on the
 * main thread could not interrupt a synchronous parse).
 */

export interface ChunkRequest {
  id: number;
  file: CorpusFile;
  options: ChunkOptions;
}

// Loaded: the first message says so, and the time limit of the first document starts after it.
parentPort?.postMessage({ ready: true });

// One message at a time: the indexer waits for each reply before it sends the next file.
parentPort?.on('message', async ({ id, file, options }: ChunkRequest) => {
  try {
    await prepareFile(file.path);
    parentPort!.postMessage({ id, ok: true, doc: chunkFile(file, options) });
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, error: chunkErrorText(error) });
  }
});
